import type { Namespace } from "../../../namespaces/types";
import { type IndexingSnapshot, projectRealtime } from "../indexing-snapshot";
import type { SqlDb } from "../read-db";
import { ensv2SettingsOf } from "./ensv2";
import { IndexBackend } from "./index-backend";
import { OnchainBackend } from "./onchain-backend";
import { NotInIndex, Resolution } from "./resolve";
import { NO_TRACE, type Tracer } from "./trace";

export interface ResolutionServiceDeps {
  indexingStatus: { snapshot(): Promise<IndexingSnapshot | undefined> };
  namespace: Namespace;
  rpcUrls: ReadonlyMap<number, string>;
  /** Whether this instance runs the protocol-acceleration plugin (else every answer is onchain). */
  accelerationIndexed: boolean;
  /** Whether it runs the ensv2 plugin: a namespace with ENSv2 resolves through it first (else onchain). */
  ensv2Indexed?: boolean;
  /** The index answers only while every chain is at most this far behind (seconds); 60 like /amirealtime. */
  maxWorstCaseDistance?: number;
  nowSeconds?: () => number;
}

export interface Answered<T> {
  result: T;
  /** Whether the index answered (protocol acceleration), rather than the chains. */
  accelerated: boolean;
}

/**
 * The one policy for answering a resolution from the index or the chains, shared by the REST routes and the
 * Omnigraph: the index when asked to and realtime, the chains otherwise (or when the index cannot answer).
 */
export class ResolutionService {
  readonly onchainBackend: OnchainBackend;
  private readonly onchain: Resolution;
  private readonly maxDistance: number;
  private readonly now: () => number;

  constructor(private readonly deps: ResolutionServiceDeps) {
    this.onchainBackend = new OnchainBackend(deps.namespace, deps.rpcUrls);
    this.onchain = new Resolution(deps.namespace, this.onchainBackend);
    this.maxDistance = deps.maxWorstCaseDistance ?? 60;
    this.now = deps.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  }

  /**
   * A resolver over the index read through `db` (a request's own handle may count its statements). ENSv2 expiries
   * are compared with the ENSv2 chain's latest indexed block in `snapshot`: the index answers as of its own state.
   */
  indexed(db: SqlDb, snapshot?: IndexingSnapshot, tracer: Tracer = NO_TRACE): Resolution {
    const ensv2 = ensv2SettingsOf(this.deps.namespace);
    const chain = ensv2 ? snapshot?.omnichainSnapshot.chains[String(ensv2.chainId)] : undefined;
    const latest = chain && "latestIndexedBlock" in chain ? chain.latestIndexedBlock : undefined;
    return new Resolution(
      this.deps.namespace,
      new IndexBackend(db, this.onchainBackend, {
        ensv2Indexed: this.deps.ensv2Indexed ?? false,
        ...(latest ? { ensv2Now: BigInt(latest.timestamp) } : {}),
      }),
      { tracer, source: "index" },
    );
  }

  /** The indexing snapshot when the index may answer (protocol acceleration indexed, every chain realtime). */
  async realtimeSnapshot(): Promise<IndexingSnapshot | undefined> {
    if (!this.deps.accelerationIndexed) return undefined;
    const snapshot = await this.deps.indexingStatus.snapshot();
    return snapshot !== undefined &&
      projectRealtime(snapshot, this.now()).realtimeProjection.worstCaseDistance <= this.maxDistance
      ? snapshot
      : undefined;
  }

  async indexIsRealtime(): Promise<boolean> {
    return (await this.realtimeSnapshot()) !== undefined;
  }

  /**
   * The index's answer when allowed and able, else the chains'. With a tracer, each attempt's steps are recorded in
   * it: an index attempt that cannot answer stays in the trace (its step in error, saying why) before the chains'.
   */
  async answer<T>(
    db: SqlDb,
    accelerate: boolean,
    run: (r: Resolution) => Promise<T>,
    tracer: Tracer = NO_TRACE,
  ): Promise<Answered<T>> {
    const snapshot = accelerate ? await this.realtimeSnapshot() : undefined;
    if (snapshot) {
      try {
        return { result: await run(this.indexed(db, snapshot, tracer)), accelerated: true };
      } catch (error) {
        if (!(error instanceof NotInIndex)) throw error;
      }
    }
    const onchain =
      tracer === NO_TRACE
        ? this.onchain
        : new Resolution(this.deps.namespace, this.onchainBackend, { tracer, source: "chain" });
    return { result: await run(onchain), accelerated: false };
  }
}
