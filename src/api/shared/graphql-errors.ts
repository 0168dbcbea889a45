import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { databaseUnavailableGraphqlError, isDatabaseUnavailable } from "./database-unavailable";

const INTERNAL = "Internal error while executing the query";

/**
 * An execution error as both GraphQL endpoints answer it. A query's own problem (a bad argument, a limit: a
 * GraphQLError, or what `isClientError` accepts) is the client's to read; a database that cannot be reached is
 * `DATABASE_UNAVAILABLE` (the answer becomes a 503); anything else (RPC, a bug) goes to `report`, for our logs, and
 * the client reads only that the query failed where it did.
 */
export function formatExecutionError(
  e: unknown,
  report: (error: unknown) => void,
  isClientError: (e: unknown) => e is Error = (_e): _e is Error => false,
): GraphQLFormattedError {
  if (e instanceof GraphQLError) {
    const original = e.originalError;
    if (original && !(original instanceof GraphQLError)) {
      if (isDatabaseUnavailable(original))
        return { ...databaseUnavailableGraphqlError(), locations: e.locations, path: e.path };
      report(original);
      return { message: INTERNAL, locations: e.locations, path: e.path };
    }
    return e.toJSON();
  }
  if (isClientError(e)) return { message: e.message };
  if (isDatabaseUnavailable(e)) return databaseUnavailableGraphqlError();
  report(e);
  return { message: INTERNAL };
}
