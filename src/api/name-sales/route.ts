import { Hono } from "hono";
import type { Hex } from "viem";
import { namehash } from "../../lib/names";
import { invalidInput } from "../shared/http-errors";
import type { IndexingSnapshot } from "../shared/indexing-snapshot";
import { type PageContext, pageContext } from "../shared/paging";
import type { SqlDb } from "../shared/read-db";
import { findNameSales, type NameSaleJson } from "./find";
import { nameSalesQuery } from "./query";

export interface NameSalesDeps {
  db: SqlDb;
  indexingStatus: { snapshot(): Promise<IndexingSnapshot | undefined> };
  /** namehash → name of each managed name (eth, base.eth, linea.eth), to name sales the subgraph tables lack. */
  managedNameByNode: ReadonlyMap<string, string>;
}

export interface NameSalesResponse {
  responseCode: "ok";
  nameSales: NameSaleJson[];
  pageContext: PageContext;
  accurateAsOf: number;
}

/** GET /api/name-sales: Seaport sales of name tokens, newest first, with the registrar actions' paging and errors. */
export function nameSalesRoutes(deps: NameSalesDeps): Hono {
  return new Hono().get("/", async (c) => {
    const query = nameSalesQuery.safeParse(c.req.query());
    if (!query.success) return invalidInput(c, query.error);
    const snapshot = await deps.indexingStatus.snapshot();
    if (!snapshot) {
      return c.json(
        {
          responseCode: "error",
          error: {
            message: "Name sales are not available yet",
            details: "Indexing has not started: no indexing status exists.",
          },
        },
        503,
      );
    }
    const { page, limit, name, domainId, ...filter } = query.data;
    const node = domainId ?? (name !== undefined ? (namehash(name) as Hex) : undefined);
    const { sales, totalRecords } = await findNameSales(
      deps.db,
      { ...filter, ...(node ? { domainId: node } : {}) },
      page,
      limit,
      deps.managedNameByNode,
    );
    const body: NameSalesResponse = {
      responseCode: "ok",
      nameSales: sales,
      pageContext: pageContext(page, limit, totalRecords),
      accurateAsOf: snapshot.omnichainSnapshot.omnichainIndexingCursor,
    };
    return c.json(body);
  });
}
