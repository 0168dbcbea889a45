import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Namespace } from "../../namespaces/types";
import { invalidInput } from "../shared/http-errors";
import type { IndexingSnapshot } from "../shared/indexing-snapshot";
import type { SqlDb } from "../shared/read-db";
import { isTransportError } from "../shared/resolution/onchain-backend";
import type { Resolution } from "../shared/resolution/resolve";
import { ResolutionService } from "../shared/resolution/service";
import { ProtocolTrace } from "../shared/resolution/trace";
import { findNameReferences, nameReferencesQuery } from "./name-references";
import {
  addressParam,
  chainIdParam,
  nameParam,
  primaryNameQuery,
  primaryNamesQuery,
  queryInput,
  recordsQuery,
} from "./query";

export interface ResolutionDeps {
  db: SqlDb;
  indexingStatus: { snapshot(): Promise<IndexingSnapshot | undefined> };
  namespace: Namespace;
  rpcUrls: ReadonlyMap<number, string>;
  /** Whether this instance runs the protocol-acceleration plugin (else every answer is onchain). */
  accelerationIndexed: boolean;
  /** Whether it runs the ensv2 plugin (ENSv2's step of a namespace with ENSv2 is answered from its tables). */
  ensv2Indexed?: boolean;
  indexedChainIds: number[];
  /** The index answers only while every chain is at most this far behind (seconds); 60 like /amirealtime. */
  maxWorstCaseDistance?: number;
  nowSeconds?: () => number;
  /** The resolution policy, when shared with another route family (the Omnigraph); built from the rest otherwise. */
  service?: ResolutionService;
}

/** Path and query validated together, so a 400 lists every problem at once. */
function parseBoth<P extends z.ZodTypeAny, Q extends z.ZodTypeAny>(params: P, query: Q, c: Context) {
  const p = params.safeParse(c.req.param());
  const q = query.safeParse(queryInput(c.req.queries()));
  if (p.success && q.success) return { ok: true as const, params: p.data as z.infer<P>, query: q.data as z.infer<Q> };
  return { ok: false as const, error: new z.ZodError([...(p.error?.issues ?? []), ...(q.error?.issues ?? [])]) };
}

/**
 * GET /api/resolve/records/:name, /api/resolve/primary-name/:address/:chainId, /api/resolve/primary-names/:address
 * (and /api/resolve/name-references/:address, always from the index).
 * Answered from the index when it is realtime (`accelerated: true`), else by reading the chains; `accelerate=false`
 * forces the chains.
 */
export function resolutionRoutes(deps: ResolutionDeps): Hono {
  const service = deps.service ?? new ResolutionService(deps);
  /** The answer, with its protocol trace (`trace`) when the caller asked `trace=true`. */
  const answer = async <T>(accelerate: boolean, trace: boolean, run: (r: Resolution) => Promise<T>) => {
    const tracer = trace ? new ProtocolTrace() : undefined;
    const answered = await service.answer(deps.db, accelerate, run, tracer);
    return { ...answered, ...(tracer ? { trace: tracer.toJSON() } : {}) };
  };

  /** A chain's RPC that cannot be reached is a dependency failure, not a bug: 503 saying which. */
  async function guarded(c: Context, handle: () => Promise<Response>): Promise<Response> {
    try {
      return await handle();
    } catch (error) {
      if (!isTransportError(error)) throw error;
      return c.json({ message: `Onchain resolution failed: ${(error as Error).message.split("\n")[0]}` }, 503);
    }
  }

  const app = new Hono();

  app.get("/records/:name", (c) =>
    guarded(c, async () => {
      const parsed = parseBoth(z.object({ name: nameParam }), recordsQuery, c);
      if (!parsed.ok) return invalidInput(c, parsed.error);
      const { addresses, texts, abi, accelerate, trace, ...kinds } = parsed.query;
      const request = { coinTypes: addresses, texts, ...kinds, abiMasks: abi === undefined ? [] : [abi] };
      const { result, ...rest } = await answer(accelerate, trace, (r) => r.records(parsed.params.name, request));
      // One mask here: its answer is `abi` ({ contentType, data } or null).
      const { abis, ...records } = result;
      return c.json({
        records: abi === undefined ? records : { ...records, abi: abis?.[abi.toString()] ?? null },
        ...rest,
      });
    }),
  );

  app.get("/primary-name/:address/:chainId", (c) =>
    guarded(c, async () => {
      const parsed = parseBoth(
        z.object({ address: addressParam, chainId: chainIdParam(deps.indexedChainIds) }),
        primaryNameQuery,
        c,
      );
      if (!parsed.ok) return invalidInput(c, parsed.error);
      const { address, chainId } = parsed.params;
      const { accelerate, trace } = parsed.query;
      const { result, ...rest } = await answer(accelerate, trace, (r) => r.primaryName(address, chainId));
      return c.json({ name: result, ...rest });
    }),
  );

  app.get("/primary-names/:address", (c) =>
    guarded(c, async () => {
      const parsed = parseBoth(z.object({ address: addressParam }), primaryNamesQuery(deps.indexedChainIds), c);
      if (!parsed.ok) return invalidInput(c, parsed.error);
      const { address } = parsed.params;
      const { chainIds, accelerate, trace } = parsed.query;
      const { result, ...rest } = await answer(accelerate, trace, async (r) =>
        Object.fromEntries(
          await Promise.all(chainIds.map(async (id) => [String(id), await r.primaryName(address, id)] as const)),
        ),
      );
      return c.json({ names: result, ...rest });
    }),
  );

  // From the index only: the names whose current address record points at the address.
  app.get("/name-references/:address", async (c) => {
    const parsed = parseBoth(z.object({ address: addressParam }), nameReferencesQuery, c);
    if (!parsed.ok) return invalidInput(c, parsed.error);
    if (!deps.accelerationIndexed) {
      return c.json(
        { message: "Name references need the protocol-acceleration plugin, which this instance does not run" },
        503,
      );
    }
    return c.json(await findNameReferences(deps.db, parsed.params.address, parsed.query));
  });

  return app;
}
