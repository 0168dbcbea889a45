import { sql } from "drizzle-orm";
import type { Hex } from "viem";
import { interpretLabel, isEncodedLabelhash } from "../../lib/labels";
import { makeSubnode } from "../../lib/names";
import { managedNames } from "../shared/managed-names";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";

/*
 * Labels the chain revealed: a registrar controller's NameRegistered/NameRenewed carries the plaintext label of the
 * name it registers, and the registrars plugin keeps it on the name's registration lifecycle
 * (`registration_lifecycle.label`, checked against the labelhash). A label the label set withheld thus becomes known
 * for `<label>.eth`, and the Omnigraph shows it in every name holding that labelhash, as the peer's graph does
 * (`[hash].foo.eth` → `label.foo.eth`). /subgraph never reads this: The Graph's subgraph names a domain only from its
 * own events and the label set.
 *
 * Looked up when a query reads a name, not written at index time: the lifecycle already holds every revealed label,
 * keyed by node, and the nodes a labelhash can have there are known (one per managed name: eth, base.eth,
 * linea.eth), so one statement per level reads them by primary key — no new table, no index-time write per event,
 * and no reindex for existing indexes. Names stay stored as indexed: `Domain.resolve` and `where: { name: { eq, in } }`
 * (by node) use the shown name, but `starts_with` and the NAME order are keyed in SQL on the stored `[hash]` form
 * (docs/api.md says why a join cannot replace it cheaply).
 */

/** The labels of these labelhashes some controller revealed (absent when none did). */
function revealedLabels(ctx: OmnigraphContext): Batcher<Hex, string | null> {
  return ctx.batcher(
    "revealed-labels",
    () =>
      new Batcher<Hex, string | null>(async (labelhashes) => {
        const managed = managedNames({ namespace: ctx.deps.namespace });
        const nodes = labelhashes.flatMap((h) => managed.map((m) => makeSubnode(m.node, h)));
        const out = new Map<Hex, string | null>();
        if (nodes.length === 0) return out;
        const rows = await ctx.query<{ labelhash: Hex; label: string }>(
          sql`select labelhash, label from registration_lifecycle where id in (${sql.join(
            nodes.map((n) => sql`${n}`),
            sql`, `,
          )}) and label is not null`,
        );
        // The indexer's label rule (src/lib/labels.ts) in the Omnigraph's mode: a literal label is shown only when
        // normalized, else as its own labelhash. A literal that reads as an encoded labelhash (`[89cb…]`) is not a
        // normalized label: it would show another hash's encoding, so its name keeps `[<its own labelhash>]`.
        for (const r of rows) {
          const shown = interpretLabel(r.label, r.labelhash, "normalized");
          if (shown.labelName !== null) out.set(r.labelhash.toLowerCase() as Hex, shown.label);
        }
        return out;
      }, null),
  );
}

/**
 * The name with each `[labelhash]` label a controller revealed written out; the name itself (synchronously) when it
 * has no encoded label, so most names cost no lookup.
 */
export function withRevealedLabels(ctx: OmnigraphContext, name: string): string | Promise<string> {
  if (!name.includes("[")) return name;
  const labels = name.split(".");
  if (!labels.some(isEncodedLabelhash)) return name;
  const batcher = revealedLabels(ctx);
  return Promise.all(labels.map((l) => (isEncodedLabelhash(l) ? batcher.load(`0x${l.slice(1, -1)}`) : l))).then(
    (found) => found.map((l, i) => l ?? labels[i]!).join("."),
  );
}
