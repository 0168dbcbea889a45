import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { peerCookbook, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";
import { CompileBudget, compileWeight, MAX_COMPILE_WEIGHT } from "../../src/api/omnigraph/compile-guard";
import { omnigraphSchema } from "../../src/api/omnigraph/execute";

/* What may be compiled (src/api/omnigraph/compile-guard.ts): a document's weight, and the process's compile time. */

const weightOf = (query: string) => {
  const document = parse(query);
  return compileWeight(omnigraphSchema(), document, getOperationAST(document)!);
};

describe("compileWeight", () => {
  it.skipIf(skipWithoutPeerOmnigraph("compileWeight's cookbook test"))("lets every cookbook query be compiled", () => {
    for (const example of peerCookbook()) expect(weightOf(example.query), example.id).toBeLessThanOrEqual(200);
  });

  it("counts a field once per concrete type above it, fragments included", () => {
    // domain: 1; its 2 fields on each of Domain's 3 types: 6.
    expect(weightOf(`{ domain(by: { name: "eth" }) { id label { hash } } }`)).toBe(1 + 3 + 3 + 3);
    expect(weightOf(`fragment L on Domain { label { hash } } { domain(by: { name: "eth" }) { id ...L } }`)).toBe(10);
    const level = (inner: string) => `id owner { address } subdomains(first: 2) { edges { node { ${inner} } } }`;
    const deep = `{ domain(by: { name: "eth" }) { ${level(level(level(level("id"))))} } }`;
    expect(weightOf(deep)).toBeGreaterThan(MAX_COMPILE_WEIGHT);
  });

  it("leaves introspection to graphql-js", () => {
    expect(weightOf(`{ __schema { types { name } } }`)).toBe(Number.POSITIVE_INFINITY);
    expect(weightOf(`{ __typename }`)).toBe(1);
  });
});

describe("CompileBudget", () => {
  it("allows compiling while it holds time, and refills at its rate up to its capacity", () => {
    let now = 0;
    const budget = new CompileBudget(100, 10, () => now);
    expect(budget.allows()).toBe(true);
    budget.spend(150);
    expect(budget.allows()).toBe(false);
    now = 4000; // +40: -10
    expect(budget.allows()).toBe(false);
    now = 6000; // +20: 10
    expect(budget.allows()).toBe(true);
    now = 1_000_000; // full, not more
    expect(budget.allows()).toBe(true);
    budget.spend(100);
    expect(budget.allows()).toBe(false);
  });
});
