import { type DocumentNode, GraphQLError, visit } from "graphql";

/*
 * Checks both GraphQL endpoints (/subgraph and /api/omnigraph) make of a request before graphql-js validates it: how
 * deep its text and variables nest, and how many fields, aliases, directives and operations its document holds.
 */

/** Brackets and braces a query or its variables may nest: deeper input would only exhaust the stack. */
export const MAX_NESTING = 64;

export interface ShapeLimits {
  maxAliases: number;
  /** Field selections written in the document (fragments counted once). */
  maxFields: number;
  maxOperations: number;
  maxDirectives: number;
}

/**
 * Counts over the parsed document, checked before validation: graphql-js validates some documents in time quadratic
 * in their size (thousands of same-named fields or directives, hundreds of operations, floods of unknown fields),
 * so a document no client writes is refused before that work, with a message saying which limit it broke.
 */
export function checkDocumentShape(document: DocumentNode, limits: ShapeLimits): GraphQLError[] {
  let fields = 0;
  let aliases = 0;
  let directives = 0;
  let operations = 0;
  visit(document, {
    Field(node) {
      fields++;
      if (node.alias) aliases++;
    },
    Directive() {
      directives++;
    },
    OperationDefinition() {
      operations++;
    },
  });
  // Most specific first: 500 aliased fields are reported as aliases, not as fields.
  const errors: GraphQLError[] = [];
  if (operations > limits.maxOperations) {
    errors.push(new GraphQLError(`Document has ${operations} operations, the limit is ${limits.maxOperations}`));
  }
  if (aliases > limits.maxAliases)
    errors.push(new GraphQLError(`Query uses ${aliases} aliases, the limit is ${limits.maxAliases}`));
  if (directives > limits.maxDirectives) {
    errors.push(new GraphQLError(`Query uses ${directives} directives, the limit is ${limits.maxDirectives}`));
  }
  if (fields > limits.maxFields)
    errors.push(new GraphQLError(`Query selects ${fields} fields, the limit is ${limits.maxFields}`));
  return errors;
}

/** Nesting of `{`/`[`/`(` in a query text, outside strings and comments. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      // Skip a string (block strings included): to the next unescaped quote.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (ch === "#") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "{" || ch === "[" || ch === "(") {
      if (++depth > max) max = depth;
    } else if (ch === "}" || ch === "]" || ch === ")") {
      depth--;
    }
  }
  return max;
}

/** Nesting of a JSON value, without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > max) max = d + 1;
    if (max > MAX_NESTING) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}
