import { type FuzzRequest, type FuzzResponse, Histogram, sendAll } from "./fuzz-inputs";
import { headBytes, NODE_MAX_HEADER_BYTES } from "./fuzz-routes";
import { report } from "./scale";

export interface FuzzRunResult {
  /** One line per broken rule (capped by the caller's assertion). */
  problems: string[];
}

/**
 * Sends the requests, judges every answer with `check` (undefined = fine) and reports the status histogram per
 * route, the time taken and the problems. A socket error is a problem, except Node's own drop of a request head
 * past its 16 KiB limit (a 431 the client may not get to read).
 */
export async function runFuzz(
  test: string,
  baseUrl: string,
  requests: FuzzRequest[],
  options: { concurrency: number; seed: number; check: (req: FuzzRequest, res: FuzzResponse) => string | undefined },
): Promise<FuzzRunResult> {
  const started = performance.now();
  const responses = await sendAll(baseUrl, requests, options.concurrency);
  const seconds = (performance.now() - started) / 1000;

  const histogram = new Histogram();
  const problems: string[] = [];
  let slowest = 0;
  responses.forEach((res, i) => {
    const req = requests[i];
    if (res instanceof Error) {
      if (headBytes(req) > NODE_MAX_HEADER_BYTES && /ECONNRESET|EPIPE/.test(res.message)) {
        histogram.add(req.route, "reset(head>16KiB)");
        return;
      }
      histogram.add(req.route, "socket-error");
      problems.push(`${req.method} ${req.what.slice(0, 200)}: ${res.message}`);
      return;
    }
    histogram.add(req.route, res.status);
    slowest = Math.max(slowest, res.ms);
    const problem = options.check(req, res);
    if (problem) problems.push(`${req.method} ${req.what.slice(0, 200)} → ${res.status}: ${problem}`);
  });

  report(
    test,
    `${requests.length} requests (seed ${options.seed}, ${options.concurrency} at a time) in ${seconds.toFixed(1)} s, slowest ${slowest.toFixed(0)} ms`,
  );
  for (const line of histogram.lines()) report(test, line);
  report(test, `${problems.length} problems${problems.length ? `: ${problems.slice(0, 10).join(" | ")}` : ""}`);
  return { problems };
}
