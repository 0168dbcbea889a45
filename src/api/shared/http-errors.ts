import type { Context } from "hono";
import type { ZodError } from "zod";

/** The notes' 400 body for query input that fails validation: `{ message: "Invalid Input", details }`. */
export function invalidInput(c: Context, error: ZodError) {
  const details = error.issues.map((issue) => ({ field: issue.path.join(".") || "(query)", message: issue.message }));
  return c.json({ message: "Invalid Input", details }, 400);
}
