/*
 * A database that cannot be reached is the operator's outage, not a fault of the request: every route that reads the
 * database answers it with 503 and a code a client can act on (retry later, try another replica), never an internal
 * error. GraphQL answers carry the code in `extensions.code`, REST answers in `code`.
 */

/** The code of every answer given because the database did not answer. */
export const DATABASE_UNAVAILABLE = "DATABASE_UNAVAILABLE";

export const DATABASE_UNAVAILABLE_MESSAGE = "The database is unavailable; try again shortly";

/** REST routes' body for a 503 of an unreachable database. */
export const databaseUnavailableJson = () => ({ message: DATABASE_UNAVAILABLE_MESSAGE, code: DATABASE_UNAVAILABLE });

/** The GraphQL error of an unreachable database. */
export const databaseUnavailableGraphqlError = () => ({
  message: DATABASE_UNAVAILABLE_MESSAGE,
  extensions: { code: DATABASE_UNAVAILABLE },
});

// Socket-level failures (node-postgres passes Node's error codes through).
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);
// SQLSTATEs of a server that went away or is not accepting connections: class 08 (connection exception), 57P01–57P03
// (admin shutdown, crash shutdown, cannot connect now: starting up or shutting down).
const SERVER_GONE = /^(08...|57P0[123])$/;
// node-postgres' own wording when the socket closed under a query or a connect timed out.
const CLIENT_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
];

/** Whether `error` (or an error it wraps: drizzle's, GraphQL's) says the database could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (SOCKET_CODES.has(code) || SERVER_GONE.test(code))) return true;
    if (typeof message === "string" && CLIENT_MESSAGES.some((m) => message.includes(m))) return true;
    if (e instanceof DatabaseUnavailableError) return true;
    e = (e as { cause?: unknown; originalError?: unknown }).cause ?? (e as { originalError?: unknown }).originalError;
  }
  return false;
}

/** Thrown where the database did not answer within a deadline (no driver error to classify). */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
}

/** A GraphQL answer's HTTP status: 503 when an error is the database's absence (a client retries), else 200. */
export function statusOfErrors(errors: readonly { extensions?: { code?: unknown } }[] | undefined): 200 | 503 {
  return errors?.some((e) => e.extensions?.code === DATABASE_UNAVAILABLE) ? 503 : 200;
}
