import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { CompileBudget, compileWeight, MAX_COMPILE_WEIGHT } from "./compile-guard";

/*
 * Hot documents run compiled (graphql-jit): a page of 100 domains is ~700 fields, and graphql-js's work per field
 * (resolve info, argument coercion, completion through promises) was most of an Omnigraph request's CPU. A document
 * is compiled on its `after`-th execution, so a query asked once costs no compilation; the first ones run on
 * graphql-js. Both executors give the same answers (test/omnigraph/compiled.test.ts compares them byte for byte; one
 * difference: where a non-null field fails more than once under one nullable parent, graphql-js stops listing the
 * failures once the null has reached that parent, and the compiled executor lists each; the data is the same):
 * - variables are coerced by graphql-js first, so a bad variable is the same error either way;
 * - every field without a resolver has graphql-js's default one (schema.ts), so a model's field that holds a function
 *   or a promise is called or awaited by both, where graphql-jit alone would read the property as it is.
 * A document graphql-jit cannot compile runs on graphql-js: one with an integer literal for a CoinType or BigInt
 * argument (graphql-jit writes literal arguments into its code as JSON, and they are bigints here). So does one too
 * heavy to compile quickly, and any while the process's compile time is spent (compile-guard.ts).
 */

export const COMPILE_AFTER_USES = 2;

/** The compile time all documents of the process share (compile-guard.ts). */
export const processCompileBudget = new CompileBudget();

/** One prepared document's compiled forms, by operation name; `null`: it runs on graphql-js. */
export class HotDocument {
  private uses = 0;
  private readonly compiled = new Map<string | undefined, CompiledQuery | null>();

  constructor(
    private readonly document: DocumentNode,
    private readonly after: number,
  ) {}

  /** The compiled operation, once the document has been executed often enough; undefined: use graphql-js. */
  compiledFor(
    schema: GraphQLSchema,
    operationName: string | undefined,
    budget: CompileBudget = processCompileBudget,
  ): CompiledOperation | undefined {
    if (++this.uses < this.after || !compilerWorks(schema)) return undefined;
    let query = this.compiled.get(operationName);
    if (query === undefined) {
      // Out of compile time: graphql-js this time, and the document is compiled on a later run.
      if (!budget.allows()) return undefined;
      query = budget.timed(() => compile(schema, this.document, operationName));
      this.compiled.set(operationName, query);
    }
    if (query === null) return undefined;
    // compile() found the operation.
    return { query, operation: getOperationAST(this.document, operationName)! };
  }
}

interface CompiledOperation {
  query: CompiledQuery;
  operation: OperationDefinitionNode;
}

let works: boolean | undefined;

/**
 * Whether graphql-jit can compile against this schema at all: it cannot when it was loaded with another copy of
 * `graphql` than the schema's (vite.config.ts says how that is avoided). Then every query runs on graphql-js, and the
 * log says so once.
 */
function compilerWorks(schema: GraphQLSchema): boolean {
  if (works !== undefined) return works;
  let problem: string | undefined;
  try {
    const probe = compileQuery(schema, parse("query($name: InterpretedName!) { __typename }"));
    if (!isCompiledQuery(probe)) problem = probe.errors?.[0]?.message ?? "no compiled query";
  } catch (e) {
    problem = e instanceof Error ? e.message : String(e);
  }
  works = problem === undefined;
  if (!works) console.warn(`[omnigraph] ${COMPILER_UNAVAILABLE}: ${problem?.split("\n")[0]}`);
  return works;
}

/** The start of the warning logged when graphql-jit cannot be used (tests look for it in the indexer's log). */
export const COMPILER_UNAVAILABLE = "the compiled executor is unavailable, every query runs on graphql-js";

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined) {
  // A missing or ambiguous operation is graphql-js's error to report.
  const operation = getOperationAST(document, operationName);
  if (!operation || compileWeight(schema, document, operation) > MAX_COMPILE_WEIGHT) return null;
  try {
    const compiled = compileQuery(schema, document, operationName);
    return isCompiledQuery(compiled) ? compiled : null;
  } catch {
    return null;
  }
}

/** Runs a compiled operation as graphql-js's `execute` would run the document. */
export async function executeCompiled(
  schema: GraphQLSchema,
  { query, operation }: CompiledOperation,
  variableValues: Record<string, unknown>,
  contextValue: unknown,
): Promise<ExecutionResult> {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variableValues, { maxErrors: 50 });
  if (coerced.errors) return { errors: coerced.errors };
  return query.query(undefined, contextValue, variableValues);
}
