import { Hono } from "hono";
import type { Hex } from "viem";
import { namehash } from "../../lib/names";
import type { IndexingSnapshot } from "../shared/indexing-snapshot";
import type { SqlDb } from "../shared/read-db";
import { findNameTokens } from "./find";
import type { ChainAccount } from "./ownership";
import { nameTokensQuery } from "./query";

export interface NameTokensDeps {
  db: SqlDb;
  indexingStatus: { snapshot(): Promise<IndexingSnapshot | undefined> };
  /** The namespace's NameWrapper contracts: a token they hold is `namewrapper`-owned. */
  nameWrappers: readonly ChainAccount[];
  /** namehash → name of each managed name (eth, base.eth, linea.eth). */
  managedNameByNode: ReadonlyMap<string, string>;
  /** The managed names whose base registrar tokens are indexed (for the 404's explanation). */
  indexedParents: readonly string[];
}

export type NameTokensErrorCode = "invalid-input" | "name-tokens-not-indexed" | "unsupported-indexing-status";

const SERVING_STATUSES = new Set(["omnichain-following", "omnichain-completed"]);

/** GET /api/name-tokens?name=… | ?domainId=…: the tokens that represent a registered name. */
export function nameTokensRoutes(deps: NameTokensDeps): Hono {
  return new Hono().get("/", async (c) => {
    const error = (status: 400 | 404 | 503, errorCode: NameTokensErrorCode, message: string, details: unknown) =>
      c.json({ responseCode: "error", errorCode, error: { message, details } }, status);

    const parsed = nameTokensQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "(query)", message: i.message }));
      // The notes' generic 400 fields (`message`, `details`) ride along, so clients of either error shape read it.
      return c.json(
        {
          responseCode: "error",
          errorCode: "invalid-input",
          error: { message: "Invalid Input", details },
          message: "Invalid Input",
          details,
        },
        400,
      );
    }

    const snapshot = await deps.indexingStatus.snapshot();
    const status = snapshot?.omnichainSnapshot.omnichainStatus;
    if (!snapshot || !status || !SERVING_STATUSES.has(status)) {
      return error(
        503,
        "unsupported-indexing-status",
        "Name tokens are not available yet",
        `Name tokens are served once indexing follows the chains or has completed; the omnichain status is ${status ?? "unknown (no indexing status yet)"}.`,
      );
    }

    const { name, domainId: requestedId } = parsed.data;
    const domainId = (requestedId ?? namehash(name!)) as Hex;
    const found = await findNameTokens(deps.db, {
      domainId,
      ...(name !== undefined ? { name } : {}),
      accurateAsOf: snapshot.omnichainSnapshot.omnichainIndexingCursor,
      nameWrappers: deps.nameWrappers,
      managedNameByNode: deps.managedNameByNode,
    });
    if (!found) {
      const subject = name !== undefined ? `name "${name}"` : `domainId ${domainId}`;
      const parent = name !== undefined ? name.split(".").slice(1).join(".") : undefined;
      const details =
        name === ""
          ? "The ENS root has no tokens."
          : parent !== undefined && !deps.indexedParents.includes(parent)
            ? `No tokens are indexed for ${subject}: this instance indexes the tokens of names under ${deps.indexedParents.map((p) => `"${p}"`).join(", ") || "no registrar"} (and NameWrapper/3DNS tokens), and none exists for this name.`
            : `No tokens are indexed for ${subject}.`;
      return error(404, "name-tokens-not-indexed", "No indexed name tokens found", details);
    }
    return c.json({ responseCode: "ok", registeredNameTokens: found });
  });
}
