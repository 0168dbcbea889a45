import { ens_normalize } from "@adraffy/ens-normalize";

/*
 * Names typed by a user (`?name=`, `/api/resolve/records/:name`): ENSIP-15 normalized, where a label nobody knows may be
 * given as its encoded labelhash `[` + 64 hex + `]` — the form /subgraph and the registrar actions show it in, so a
 * name read from one route can be asked of another. One parser for every route that takes a name.
 */

const ENCODED_ANY_CASE = /^\[[0-9a-fA-F]{64}\]$/;

/**
 * ens-normalize quotes the offending label or character and follows the quote with U+200E (LEFT-TO-RIGHT MARK) so a
 * right-to-left label cannot reorder the rest of the message when shown. In a JSON error it is an invisible character
 * that breaks copy, grep and string comparison; our messages are plain text.
 */
function plainMessage(error: unknown): string {
  return (error as Error).message.replace(/\u200e/g, "");
}

/** Why `name` is not an ENSIP-15 normalized name, or undefined when it is (the empty name is the root: refused). */
export function normalizationProblem(name: string): string | undefined {
  if (name === "") return "name must not be empty";
  let normalized: string;
  try {
    normalized = ens_normalize(name);
  } catch (error) {
    return `name is not a valid ENS name: ${plainMessage(error)}`;
  }
  return normalized === name ? undefined : `name must be ENSIP-15 normalized; its normalized form is "${normalized}"`;
}

export function isNormalizedName(name: string): boolean {
  return normalizationProblem(name) === undefined;
}

/**
 * Why `name` is not a name a route accepts, or undefined when it is: every label ENSIP-15 normalized or an encoded
 * labelhash in lowercase hex (stored names use lowercase; uppercase hex gets the same "its normalized form is" hint).
 * Runs of plain labels are normalized together, so a name without encoded labels gets exactly ens-normalize's verdict.
 */
export function nameInputProblem(name: string): string | undefined {
  const labels = name.split(".");
  if (!labels.some((l) => ENCODED_ANY_CASE.test(l))) return normalizationProblem(name);
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): string | undefined => {
    if (run.length === 0) return undefined;
    const plain = run.join(".");
    run = [];
    if (plain === "") return "name is not a valid ENS name: it has an empty label";
    try {
      out.push(ens_normalize(plain));
    } catch (error) {
      return `name is not a valid ENS name: ${plainMessage(error)}`;
    }
    return undefined;
  };
  for (const label of labels) {
    if (!ENCODED_ANY_CASE.test(label)) {
      run.push(label);
      continue;
    }
    const problem = flush();
    if (problem) return problem;
    out.push(label.toLowerCase());
  }
  const problem = flush();
  if (problem) return problem;
  const normalized = out.join(".");
  return normalized === name ? undefined : `name must be ENSIP-15 normalized; its normalized form is "${normalized}"`;
}
