import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";

// One registration helper for every plugin (it also honours the benchmark's no-op switch).
export { isIndexed, on } from "../../shared/register";

/** The part of Ponder's handler context the registrars and tokenscope logic uses. */
export type HandlerContext = IndexingContext;

/** The part of a Ponder log event they use, with the handler's decoded arguments. */
export type LogEvent<Args> = IndexedEvent<Args>;
