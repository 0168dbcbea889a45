import { ens_beautify } from "@adraffy/ens-normalize";
import { GraphQLError } from "graphql";
import type { Hex } from "viem";
import { encodeLabelhash, isEncodedLabelhash, isNormalizedLabel, labelhashOf } from "../../lib/labels";
import { nameInputProblem } from "../../lib/name-input";
import { namehash } from "../../lib/names";

/*
 * Interpreted Names: every label normalized, or its encoded labelhash when unknown or not normalized. Names stored in
 * the default label mode already are; a subgraph-compatible index may hold unnormalized labels, shown encoded here.
 */

/**
 * Labels recur across answers (every name under `eth` ends in it; a page of 100 names is 200 labels): their
 * normalization check and beautified form are kept, bounded, instead of running ENSIP-15 again per label per answer.
 */
const MEMO_LIMIT = 50_000;
function memo(fn: (label: string) => string): (label: string) => string {
  const known = new Map<string, string>();
  return (label) => {
    let out = known.get(label);
    if (out === undefined) {
      out = fn(label);
      if (known.size >= MEMO_LIMIT) known.clear();
      known.set(label, out);
    }
    return out;
  };
}

/**
 * Lowercase letters, digits and hyphens, without ENSIP-15's `--` in the third and fourth places: normalized, and its
 * own beautified form, known without ens-normalize's tokenizer or a memo. Most labels are. (Here, not in src/lib:
 * the indexing sources' digest is part of the build record, and an API-only shortcut should not make operators
 * rebuild their index.)
 */
const PLAIN_ASCII = /^[a-z0-9-]+$/;
const isPlainAsciiLabel = (label: string): boolean =>
  PLAIN_ASCII.test(label) && !(label[2] === "-" && label[3] === "-");

const interpretOtherLabel = memo((label: string): string =>
  isEncodedLabelhash(label) || isNormalizedLabel(label) ? label : encodeLabelhash(labelhashOf(label)),
);

/**
 * A label of a stored name as the Omnigraph names it: itself when normalized (most are plain ASCII, checked without a
 * lookup) or an encoded labelhash (in a stored name, `[hash]` is always one). A literal label from an event is not
 * this: src/lib/labels.ts' `interpretLabel` encodes a `[hash]`-looking literal by its own labelhash.
 */
export const interpretLabel = (label: string): string =>
  isPlainAsciiLabel(label) ? label : interpretOtherLabel(label);

export function interpretName(name: string): string {
  return name === "" ? "" : name.split(".").map(interpretLabel).join(".");
}

/** For display: each known label beautified (ENSIP-15), encoded labelhashes as they are. */
export function beautifyName(interpreted: string): string {
  return interpreted === "" ? "" : interpreted.split(".").map(beautifyLabel).join(".");
}

const beautifyOtherLabel = memo((label: string): string => {
  if (isEncodedLabelhash(label)) return label;
  try {
    return ens_beautify(label);
  } catch {
    return label;
  }
});

export const beautifyLabel = (label: string): string => (isPlainAsciiLabel(label) ? label : beautifyOtherLabel(label));

/**
 * Nodes of the valid name arguments seen, bounded: checking a name (ENSIP-15) and hashing it (keccak per label) is
 * most of a lookup's own work, and the same names are asked again and again.
 */
const nodesOfNames = new Map<string, Hex>();

/** A name argument (`InterpretedName`): checked as /api/resolve checks names, then its node. */
export function nodeOfNameInput(name: string): Hex {
  const known = nodesOfNames.get(name);
  if (known !== undefined) return known;
  const problem = nameInputProblem(name);
  if (problem) throw new GraphQLError(`Invalid InterpretedName "${name.slice(0, 300)}": ${problem}`);
  const node = namehash(name);
  // Names up to 255 characters (DNS's bound, and then some): the memo stays a few MB at most.
  if (name.length <= 255) {
    if (nodesOfNames.size >= MEMO_LIMIT) nodesOfNames.clear();
    nodesOfNames.set(name, node);
  }
  return node;
}

/** Nodes of a name's ancestors, nearest first, the name's own excluded and the root included. */
export function ancestorNodes(name: string): Hex[] {
  if (name === "") return [];
  const labels = name.split(".");
  const out: Hex[] = [];
  for (let i = 1; i <= labels.length; i++) out.push(namehash(labels.slice(i).join(".")));
  return out;
}

export function depthOf(name: string): number {
  return name === "" ? 0 : name.split(".").length;
}

export interface CanonicalName {
  readonly interpreted: string;
  readonly beautified: string;
}

/** Names recur across answers too (an owner's, a parent's children): their two forms are kept, bounded. */
const canonicalNames = new Map<string, CanonicalName>();

/**
 * A name as stored (interpreted) and as shown (beautified); used by the domain and resolution resolvers. The object
 * is shared between answers: read it, never change it.
 */
export function canonicalName(name: string): CanonicalName {
  let out = canonicalNames.get(name);
  if (out === undefined) {
    const interpreted = interpretName(name);
    out = Object.freeze({ interpreted, beautified: beautifyName(interpreted) });
    if (name.length <= 255) {
      if (canonicalNames.size >= MEMO_LIMIT) canonicalNames.clear();
      canonicalNames.set(name, out);
    }
  }
  return out;
}
