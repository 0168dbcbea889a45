import { type Context, Hono } from "hono";
import { ZodError } from "zod";
import { invalidInput } from "../shared/http-errors";
import type { IndexingSnapshot } from "../shared/indexing-snapshot";
import { type PageContext, pageContext } from "../shared/paging";
import type { SqlDb } from "../shared/read-db";
import { findRegistrarActions, type NamedRegistrarAction } from "./find";
import { parentNodeParam, registrarActionsQuery } from "./query";

export interface RegistrarActionsDeps {
  db: SqlDb;
  indexingStatus: { snapshot(): Promise<IndexingSnapshot | undefined> };
  /** namehash → name of each managed name (eth, base.eth, linea.eth), to name actions the subgraph tables lack. */
  managedNameByNode: ReadonlyMap<string, string>;
}

export interface RegistrarActionsResponse {
  responseCode: "ok";
  registrarActions: NamedRegistrarAction[];
  pageContext: PageContext;
  accurateAsOf: number;
}

/** GET /api/registrar-actions and /api/registrar-actions/:parentNode: logical registrar actions, newest first. */
export function registrarActionsRoutes(deps: RegistrarActionsDeps): Hono {
  const list = async (c: Context, params: Record<string, string> | undefined) => {
    const query = registrarActionsQuery.safeParse(c.req.query());
    const param = params ? parentNodeParam.safeParse(params) : undefined;
    if (!query.success || (param && !param.success)) {
      // Report every bad field at once: the path segment's and the query's.
      const issues = [
        ...(param && !param.success ? param.error.issues : []),
        ...(query.success ? [] : query.error.issues),
      ];
      return invalidInput(c, new ZodError(issues));
    }
    const snapshot = await deps.indexingStatus.snapshot();
    if (!snapshot) {
      return c.json(
        {
          responseCode: "error",
          error: {
            message: "Registrar actions are not available yet",
            details: "Indexing has not started: no indexing status exists.",
          },
        },
        503,
      );
    }
    const { page, limit, ...filter } = query.data;
    const { actions, totalRecords } = await findRegistrarActions(
      deps.db,
      { ...filter, ...(param?.success ? { parentNode: param.data.parentNode } : {}) },
      page,
      limit,
      deps.managedNameByNode,
    );
    const body: RegistrarActionsResponse = {
      responseCode: "ok",
      registrarActions: actions,
      pageContext: pageContext(page, limit, totalRecords),
      accurateAsOf: snapshot.omnichainSnapshot.omnichainIndexingCursor,
    };
    return c.json(body);
  };
  return new Hono().get("/", (c) => list(c, undefined)).get("/:parentNode", (c) => list(c, c.req.param()));
}
