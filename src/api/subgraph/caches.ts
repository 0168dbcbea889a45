import type { DocumentNode, GraphQLFormattedError } from "graphql";
import { BoundedMap } from "../../lib/bounded-map";
import { INTROSPECTION_ANSWERS_MAX, PREPARED_DOCUMENTS_MAX } from "./limits";

/*
 * The request pipeline's in-process caches, each bounded by a limit of limits.ts. The query-result cache, keyed by
 * the indexed head, is ../shared/query-cache.ts; these two hold what does not change while the process lives (the schema is fixed).
 */

/** A GraphQL answer's body. */
export interface AnswerBody {
  data?: unknown;
  errors?: GraphQLFormattedError[];
}

/** A query text parsed and validated, or the errors that refuse it; `normalized` is its printed form, once needed. */
export type Prepared = { document: DocumentNode; normalized?: string } | { errors: GraphQLFormattedError[] };

/**
 * Parsed and validated documents by query text. Clients send the same few query texts with different variables,
 * and validating against this schema costs more than running the SQL, so each text is checked once. Key: the shape
 * limits and the text (pipeline.ts `prepare`), so apps built with other limits (tests) never share a verdict.
 */
export const preparedDocuments = new BoundedMap<string, Prepared>(PREPARED_DOCUMENTS_MAX, true);

/**
 * Answers to introspection-only operations. Key: the printed document (so comments and spacing do not matter), the
 * variables and the operation name. The schema is fixed for the life of the process, and a full introspection of it
 * costs more CPU than any data query.
 */
export const introspectionAnswers = new BoundedMap<string, AnswerBody>(INTROSPECTION_ANSWERS_MAX);
