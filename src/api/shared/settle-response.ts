import type { Context } from "hono";

/**
 * Makes `answer` the context's response as it is. Ponder's server runs hono's cors middleware on every route, which
 * sets its header on a placeholder response before we run; hono would then rebuild our answer around a stream of its
 * body to merge the two (an undici Response and a ReadableStream per request, ~40 % of a cached answer's CPU on the
 * indexer). The placeholder's headers are copied into the answer here instead, and the placeholder dropped.
 */
export function settle(c: Context, answer: Response): Response {
  const placeholder = c.finalized ? undefined : c.res;
  if (placeholder) {
    placeholder.headers.forEach((value, name) => {
      if (name !== "content-type" && !answer.headers.has(name)) answer.headers.set(name, value);
    });
    c.res = undefined as unknown as Response;
  }
  c.res = answer;
  return answer;
}
