import { ens_normalize } from "@adraffy/ens-normalize";
import type { Hex } from "viem";
import { labelhashOf as labelServiceLabelhashOf } from "../../labels-service/src/labelhash";
import { RecentMap } from "./recent-map";

/**
 * Label rules (docs/api.md, "Names as input"). A label is shown either as itself or, when unknown or not showable, as its
 * encoded labelhash `[` + 64 lowercase hex + `]`. Which labels are showable depends on the mode:
 * - subgraph-compatible: anything without `\0`, `.`, `[` or `]` (the ENS subgraph's `checkValidLabel`,
 *   https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/src/utils.ts#L68-L99; its encoded label:
 *   https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/src/ensRegistry.ts#L115);
 * - default: ENSIP-15 normalized labels only (so every stored name is a normalized name or has encoded parts).
 * Either way a stored name never holds a NUL byte, which PostgreSQL text cannot store.
 */

export type LabelMode = "subgraph" | "normalized";

/**
 * keccak256 of the label's UTF-8 bytes, the label service's own function (one definition of a labelhash for both).
 * Unlike viem's `labelhash`, an `[hash]`-looking label is hashed as text.
 */
export const labelhashOf: (label: string) => Hex = labelServiceLabelhashOf;

/** `[` + the labelhash's 64 lowercase hex digits + `]`. */
export function encodeLabelhash(labelhash: Hex): string {
  return `[${labelhash.slice(2).toLowerCase()}]`;
}

const ENCODED_LABELHASH = /^\[[0-9a-f]{64}\]$/;

export function isEncodedLabelhash(label: string): boolean {
  return ENCODED_LABELHASH.test(label);
}

/** The ENS subgraph's `checkValidLabel`: these four characters would make a name ambiguous or unstorable. */
export function isSubgraphIndexableLabel(label: string): boolean {
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c === 0 || c === 0x2e || c === 0x5b || c === 0x5d) return false;
  }
  return true;
}

/**
 * Verdicts by label: a name's label is checked by several of its events (registration, NewOwner, controller,
 * wrap, renewals), and ENSIP-15 normalization cost more of the backfill than any other label rule.
 */
const normalizedVerdicts = new RecentMap<string, boolean>(100_000);

/** ENSIP-15: the label is non-empty, a single label, and equal to its own normalization. */
export function isNormalizedLabel(label: string): boolean {
  if (label === "" || label.includes(".")) return false;
  let verdict = normalizedVerdicts.get(label);
  if (verdict === undefined) {
    try {
      verdict = ens_normalize(label) === label;
    } catch {
      verdict = false;
    }
    normalizedVerdicts.set(label, verdict);
  }
  return verdict;
}

export function isShowableLabel(label: string, mode: LabelMode): boolean {
  return mode === "subgraph" ? isSubgraphIndexableLabel(label) : isNormalizedLabel(label);
}

export interface InterpretedLabel {
  /** What goes into names: the label itself or its encoded labelhash. */
  label: string;
  /** The plaintext label when it is showable, else null (the subgraph's `labelName`). */
  labelName: string | null;
}

/**
 * How a (possibly unknown) literal label of `labelhash` is stored. `literal` must already be known to hash to
 * `labelhash` (healing and the controllers check that before calling this).
 */
export function interpretLabel(literal: string | null, labelhash: Hex, mode: LabelMode): InterpretedLabel {
  if (literal !== null && isShowableLabel(literal, mode)) return { label: literal, labelName: literal };
  return { label: encodeLabelhash(labelhash), labelName: null };
}
