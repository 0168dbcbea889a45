import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/*
 * What keeps compiling documents (compiled.ts) from costing more CPU than it saves. graphql-jit writes code for every
 * field once per concrete type it may be read on, so its work grows with the fields times the fan-out of the abstract
 * types above them (a Domain is one of 3 types, a Registration one of 5): `domain { subdomains { … { subdomains { … } } } }`
 * with 25 fields a level weighs ~1,700 and took ~300 ms to compile, the cookbook's queries weigh 5–200 (2–35 ms).
 */

/** Documents weighing more run on graphql-js: compiling one would stall the event loop longer than ~100 ms. */
export const MAX_COMPILE_WEIGHT = 600;

/**
 * The operation's weight: its fields counted once per concrete type graphql-jit compiles them for. Infinity for a
 * field the schema does not have on that type (introspection's `__schema` and `__type`: left to graphql-js).
 */
export function compileWeight(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let total = 0;
  const walk = (set: SelectionSetNode, type: GraphQLNamedType, fanOut: number, seen: ReadonlySet<string>) => {
    for (const selection of set.selections) {
      if (total > MAX_COMPILE_WEIGHT) return;
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        // Validation has refused cycles already; `seen` keeps a malformed document from looping here.
        if (!fragment || seen.has(fragment.name.value)) continue;
        const on = schema.getType(fragment.typeCondition.name.value) ?? type;
        walk(fragment.selectionSet, on, fanOut, new Set([...seen, fragment.name.value]));
        continue;
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? type) : type;
        walk(selection.selectionSet, on, fanOut, seen);
        continue;
      }
      total += fanOut;
      if (selection.name.value === "__typename") continue;
      const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
      if (!field) {
        total = Number.POSITIVE_INFINITY;
        return;
      }
      if (!selection.selectionSet) continue;
      const named = getNamedType(field.type);
      const fan = isAbstractType(named) ? schema.getPossibleTypes(named).length : 1;
      walk(selection.selectionSet, named, fanOut * fan, seen);
    }
  };
  const root = schema.getRootType(operation.operation);
  if (!root) return Number.POSITIVE_INFINITY;
  walk(operation.selectionSet, root, 1, new Set());
  return total;
}

/**
 * Milliseconds of compiling the process may spend: a bucket that holds `capacityMs` and refills at `refillPerSecond`.
 * Hot documents are few, so they are all compiled early; a client sending ever new documents twice each cannot make
 * the process spend more than the refill rate compiling them (then they run on graphql-js, as the first time).
 */
export class CompileBudget {
  private available: number;
  private at: number;

  constructor(
    private readonly capacityMs = 1000,
    private readonly refillPerSecond = 50,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.available = capacityMs;
    this.at = now();
  }

  /** Whether a compile may start now (the bucket is not empty). */
  allows(): boolean {
    const t = this.now();
    this.available = Math.min(this.capacityMs, this.available + ((t - this.at) / 1000) * this.refillPerSecond);
    this.at = t;
    return this.available > 0;
  }

  spend(ms: number): void {
    this.available -= ms;
  }

  /** Runs `work` and spends the time it took, read on the budget's own clock. */
  timed<T>(work: () => T): T {
    const started = this.now();
    try {
      return work();
    } finally {
      this.spend(this.now() - started);
    }
  }
}
