import { type FieldNode, valueFromASTUntyped } from "graphql";
import { changeBlocksOf } from "./reading";

/*
 * The blocks a request names, checked before any work (limits.ts runs this on every field of the operation before
 * execution; at-block.ts again on the value it gets): a `block: { hash }` must be 32 bytes of hex, a block number 0 or
 * more. Anything else was a lookup the chain could not answer (a malformed hash held a request for 40-60 s while the
 * RPC client retried). Errors in graph-node's frame for a value it cannot decode: Failed to decode `<arg>` value: `…`.
 */

const BLOCK_HASH = /^(0x)?[0-9a-fA-F]{64}$/;

const decodeError = (argument: string, problem: string) => `Failed to decode \`${argument}\` value: \`${problem}\``;

/** A client's value as the message shows it: JSON, cut short (a hash may be a 20 KiB string). */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  const length = typeof value === "string" ? value.length : json.length;
  return json.length > 80 ? `${json.slice(0, 72)}… (${length} characters)` : json;
}

function blockNumberProblem(argument: string, n: unknown): string | undefined {
  if (typeof n !== "number") return undefined; // absent, or a type graphql-js's coercion reports
  if (Number.isSafeInteger(n) && n >= 0) return undefined;
  return decodeError(argument, `${shown(n)} is not a block number: a block number is a whole number, 0 or more`);
}

/** What is wrong with a `block:` argument (coerced, or as a client sent it), or undefined. */
export function blockArgumentError(block: unknown): string | undefined {
  if (block === null || typeof block !== "object") return undefined;
  const { hash, number } = block as { hash?: unknown; number?: unknown };
  if (typeof hash === "string" && !BLOCK_HASH.test(hash)) {
    const bytes = hash.replace(/^0x/, "").length / 2;
    return decodeError(
      "block.hash",
      `${shown(hash)} is not a block hash: a block hash is 32 bytes, 0x and 64 hex digits${
        /^(0x)?[0-9a-fA-F]*$/.test(hash) ? ` (this is ${bytes} bytes)` : ""
      }`,
    );
  }
  return blockNumberProblem("block.number", number);
}

/** What is wrong with a filter's `_change_block` numbers (reading.ts `changeBlocksOf`), or undefined. */
export function changeBlockError(numbers: Iterable<unknown>): string | undefined {
  for (const n of numbers) {
    const problem = blockNumberProblem("_change_block.number_gte", n);
    if (problem) return problem;
  }
  return undefined;
}

/** The problems of a field's `block` and `where` arguments as written, with the request's variables in place. */
export function blockInputErrors(node: FieldNode, variables: Record<string, unknown>): string[] {
  const errors: string[] = [];
  for (const argument of node.arguments ?? []) {
    const name = argument.name.value;
    if (name !== "block" && name !== "where") continue;
    const value = valueFromASTUntyped(argument.value, variables);
    const problem = name === "block" ? blockArgumentError(value) : changeBlockError(changeBlocksOf(value));
    if (problem) errors.push(problem);
  }
  return errors;
}
