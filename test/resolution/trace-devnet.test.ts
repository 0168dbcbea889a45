import { type Address, createPublicClient, http, type PublicClient, parseAbi, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, type NameFacts, scenarioOf } from "../../devnet/src/index";
import type { Ensv2NameFacts, Ensv2Scenario } from "../../devnet/src/scenario/ensv2-model";
import { syncClocksAndWaitRealtime as syncClocks } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { executeOmnigraphRequest } from "../../src/api/omnigraph";
import { ResolutionService } from "../../src/api/shared/resolution/service";
import { ProtocolTrace, type TraceNode } from "../../src/api/shared/resolution/trace";
import { dnsEncode } from "../../src/lib/dns-wire";
import { devnetNamespace } from "../../src/namespaces/devnet";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * The resolution trace (`ForwardResolve.trace`, `ReverseResolve.trace`) on the devnet indexed with ENSv1 (root, Base,
 * Linea), protocol acceleration and ENSv2, over HTTP: for a plain ENSv1 name, a wildcard child of one (its resolver
 * is not extended), a Basenames name (the L2 registry), an ENSv2 name and a wildcard child of one (PermissionedResolver,
 * extended) and a primary name, answered from the index and forced onchain, the steps name the registry, resolver,
 * node and outcome the chain's own eth_call reads give. In process: a query that does not select `trace` builds none.
 */

const ROOT = 31337;
const BASE = 31338;

const Registry = parseAbi(["function resolver(bytes32 node) view returns (address)"]);
const Resolver = parseAbi(["function addr(bytes32 node) view returns (address)"]);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let v2: Ensv2Scenario;
let indexer: RunningIndexer;
const statuses: number[] = [];

const lower = (a: string) => a.toLowerCase() as Address;
const rpcUrl = (chainId: number) => manifest.chains[String(chainId)]!.rpcUrl;
const client = (chainId: number) => createPublicClient({ transport: http(rpcUrl(chainId)) }) as PublicClient;
const registryOf = (ds: "ensroot" | "basenames") =>
  lower(manifest.datasources[ds]!.contracts.Registry!.address as string);

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 3, names: 30, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  v2 = scenario.ensv2 as unknown as Ensv2Scenario;
  indexer = await startIndexer(
    indexerOptionsFor(env, {
      plugins: ["subgraph", "basenames", "lineanames", "protocol-acceleration", "ensv2"],
      database: "postgres",
    }),
  );
  await indexer.process.ready();
  await syncClocks(
    Object.keys(manifest.chains).map((id) => rpcUrl(Number(id))),
    indexer.url,
  );
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

async function omnigraph(query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${indexer.url}/api/omnigraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  statuses.push(res.status);
  const body = (await res.json()) as { data?: any; errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`omnigraph ${res.status}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const FORWARD = /* GraphQL */ `
  query Forward($name: InterpretedName!, $accelerate: Boolean!) {
    domain(by: { name: $name }) {
      resolve(accelerate: $accelerate) {
        trace
        acceleration { attempted }
        records { addresses(coinTypes: [60]) { address } }
      }
    }
  }
`;

/** Every span of a trace, depth first. */
const spans = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...spans(n.children)]);
const step = (n: TraceNode) => n.attributes["ens.protocol.step"];
const stepsOf = (nodes: TraceNode[], name: string) => spans(nodes).filter((n) => step(n) === name);
const eventsOf = (n: TraceNode, name: string) => n.events.filter((e) => e.attributes["ens.protocol.step"] === name);

async function traceOf(name: string, accelerate: boolean) {
  const resolve = (await omnigraph(FORWARD, { name, accelerate })).domain?.resolve;
  expect(resolve, name).toBeTruthy();
  return resolve as { trace: TraceNode[]; acceleration: { attempted: boolean }; records: any };
}

/** The root of the attempt that answered: the last root (an index attempt that could not answer comes first). */
function answeringRoot(trace: TraceNode[], accelerated: boolean): TraceNode {
  const root = trace[trace.length - 1]!;
  expect(root.name).toBe("forward-resolution:forward-resolution");
  expect(root.status.code).toBe(1);
  expect(root.attributes.source).toBe(accelerated ? "index" : "chain");
  return root;
}

/** The ENSv1 `find-resolver` step of a root, checked against the chain's own registry. */
function ensv1FindResolver(root: TraceNode): TraceNode {
  const found = root.children.filter((c) => step(c) === "find-resolver" && c.attributes.protocol === "ENSv1");
  expect(found.length, JSON.stringify(root, null, 1)).toBe(1);
  return found[0]!;
}

/** /api/resolve/records/:name with `trace=true`: for names the graph does not hold (wildcard children). */
async function restTraceOf(name: string, accelerate: boolean) {
  const res = await fetch(
    `${indexer.url}/api/resolve/records/${encodeURIComponent(name)}?addresses=60&trace=true&accelerate=${accelerate}`,
  );
  statuses.push(res.status);
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    records: { addresses: Record<string, string | null> };
    accelerated: boolean;
    trace: TraceNode[];
  };
  return {
    trace: body.trace,
    acceleration: { attempted: body.accelerated },
    records: { addresses: [{ address: body.records.addresses["60"] }] },
  };
}

const UniversalResolverV2 = parseAbi(["function findResolver(bytes name) view returns (address, bytes32, uint256)"]);

/** Whether ENSv2 resolves the name itself (a resolver other than the ENSV1Resolver fallback), by eth_call. */
async function ensv2Answers(name: string): Promise<boolean> {
  const [resolver] = await client(ROOT).readContract({
    address: lower(manifest.ensv2!.contracts.UniversalResolverV2!.address as string),
    abi: UniversalResolverV2,
    functionName: "findResolver",
    args: [dnsEncode(name)],
  });
  const fallback = lower(manifest.ensv2!.contracts.ENSV1Resolver!.address as string);
  return resolver !== zeroAddress && lower(resolver) !== fallback;
}

function shape(node: TraceNode): void {
  expect(node).toMatchObject({ scope: "protocol-tracing", traceId: expect.any(String), id: expect.any(String) });
  expect(node.duration).toBeGreaterThanOrEqual(0);
  for (const c of node.children) {
    expect(c.parentSpanContext?.spanId).toBe(node.id);
    shape(c);
  }
}

const ensv1Names = (chainId: number) =>
  scenario.names.filter(
    (f: NameFacts) =>
      f.chainId === chainId &&
      !f.deleted &&
      f.resolver !== undefined &&
      f.resolver !== zeroAddress &&
      f.addr !== undefined &&
      f.labels.every((l) => /^[a-z0-9-]+$/.test(l)),
  );

describe("ForwardResolve.trace on the devnet", () => {
  it("a plain ENSv1 name: the root registry with its fallback, the resolver at the name, its addr read, indexed and onchain", async () => {
    const candidates = ensv1Names(ROOT).filter((f) => f.name.endsWith(".eth"));
    const root = client(ROOT);
    let checked = 0;
    for (const f of candidates.slice(0, 6)) {
      const chainResolver = lower(
        await root.readContract({
          address: registryOf("ensroot"),
          abi: Registry,
          functionName: "resolver",
          args: [f.node],
        }),
      );
      const chainAddr = await root
        .readContract({ address: chainResolver, abi: Resolver, functionName: "addr", args: [f.node] })
        .catch(() => undefined);
      if (chainResolver === zeroAddress || !chainAddr || (await ensv2Answers(f.name))) continue;
      for (const accelerate of [true, false]) {
        const { trace, acceleration, records } = await traceOf(f.name, accelerate);
        expect(records.addresses[0].address).toBe(lower(chainAddr));
        trace.forEach(shape);
        const rootSpan = answeringRoot(trace, acceleration.attempted);
        expect(rootSpan.attributes).toMatchObject({
          name: f.name,
          chainId: ROOT,
          "ens.protocol": "forward-resolution",
        });
        const find = ensv1FindResolver(rootSpan);
        expect(find.attributes).toMatchObject({
          chainId: ROOT,
          registry: registryOf("ensroot"),
          fallbackRegistry: lower(manifest.datasources.ensroot!.contracts.RegistryOld!.address as string),
          activeResolver: chainResolver,
          activeName: f.name,
          requiresWildcardSupport: false,
        });
        expect(
          eventsOf(rootSpan, "active-resolver-exists").map((e) => e.attributes["ens.protocol.step.result"]),
        ).toEqual([true]);
        expect(eventsOf(rootSpan, "extended-resolver")[0]!.attributes["ens.protocol.step.result"]).toBe(false);
        const [execute] = rootSpan.children.filter((c) => step(c) === "execute-resolve-calls");
        expect(execute!.attributes).toMatchObject({
          resolver: chainResolver,
          node: f.node,
          extended: false,
          source: acceleration.attempted ? "index" : "chain",
        });
        expect(eventsOf(execute!, "read-record").map((e) => e.attributes)).toContainEqual(
          expect.objectContaining({ record: "addresses", key: "60", "ens.protocol.step.result": lower(chainAddr) }),
        );
      }
      checked++;
    }
    expect(checked, "ENSv1 names with a resolver and an addr on the root chain").toBeGreaterThan(0);
  }, 300_000);

  it("a wildcard child of an ENSv1 name (over REST, trace=true): the parent's resolver, not extended, so no records are read", async () => {
    let f: NameFacts | undefined;
    for (const n of ensv1Names(ROOT).filter((n) => n.name.endsWith(".eth")))
      if (!(await ensv2Answers(`trace-wildcard-child.${n.name}`))) {
        f = n;
        break;
      }
    expect(f, "an ENSv1 name ENSv2 does not answer for").toBeDefined();
    const child = `trace-wildcard-child.${f!.name}`;
    const resolver = lower(
      await client(ROOT).readContract({
        address: registryOf("ensroot"),
        abi: Registry,
        functionName: "resolver",
        args: [f!.node],
      }),
    );
    for (const accelerate of [true, false]) {
      const { trace, acceleration, records } = await restTraceOf(child, accelerate);
      expect(records.addresses[0].address).toBeNull();
      const rootSpan = answeringRoot(trace, acceleration.attempted);
      expect(ensv1FindResolver(rootSpan).attributes).toMatchObject({
        activeResolver: resolver,
        activeName: f!.name,
        requiresWildcardSupport: true,
      });
      expect(eventsOf(rootSpan, "wildcard-supported")[0]!.attributes["ens.protocol.step.result"]).toBe(false);
      expect(
        stepsOf(trace, "execute-resolve-calls").filter((s) => s.attributes.source === rootSpan.attributes.source),
      ).toEqual([]);
    }
  }, 120_000);

  it("a Basenames name walks the L2 registry on its chain", async () => {
    const f = ensv1Names(BASE)[0];
    expect(f, "a Basenames name with a resolver in the scenario").toBeDefined();
    const resolver = lower(
      await client(BASE).readContract({
        address: registryOf("basenames"),
        abi: Registry,
        functionName: "resolver",
        args: [f!.node],
      }),
    );
    for (const accelerate of [true, false]) {
      const { trace, acceleration } = await traceOf(f!.name, accelerate);
      const find = ensv1FindResolver(answeringRoot(trace, acceleration.attempted));
      expect(find.attributes).toMatchObject({
        chainId: BASE,
        registry: registryOf("basenames"),
        activeResolver: resolver,
        activeName: f!.name,
      });
      expect(find.attributes.fallbackRegistry).toBeUndefined();
    }
  }, 120_000);

  it("an ENSv2 name and a wildcard child: ENSv2's walk from the root registry to an extended PermissionedResolver", async () => {
    const f = v2.names.find(
      (n: Ensv2NameFacts) =>
        n.status === "registered" && n.resolver && n.addr && n.labels.every((l) => /^[a-z0-9-]+$/.test(l)),
    );
    expect(f, "a registered ENSv2 name with a resolver and an address").toBeDefined();
    const rootRegistry = lower(manifest.ensv2!.contracts.RootRegistry!.address as string);
    for (const [name, activeName] of [
      [f!.name, f!.name],
      [`trace-wildcard-child.${f!.name}`, f!.name],
    ] as const) {
      for (const accelerate of [true, false]) {
        // The graph holds the name, not its wildcard child: that one is asked over REST.
        const { trace, acceleration, records } =
          name === activeName ? await traceOf(name, accelerate) : await restTraceOf(name, accelerate);
        // The child has no records of its own: PermissionedResolver answers for its node (null) through resolve().
        if (name === activeName) expect(records.addresses[0].address).toBe(lower(f!.addr!));
        const rootSpan = answeringRoot(trace, acceleration.attempted);
        const [find] = rootSpan.children.filter((c) => step(c) === "find-resolver");
        expect(find!.attributes).toMatchObject({
          protocol: "ENSv2",
          registry: rootRegistry,
          activeResolver: lower(f!.resolver!),
          activeName,
          requiresWildcardSupport: name !== activeName,
        });
        if (acceleration.attempted) {
          // The index walks the registries label by label, from the root registry down to the name's.
          const walked = eventsOf(find!, "walk-registry").map((e) => e.attributes["ens.protocol.step.result"]);
          expect(walked[0]).toBe(rootRegistry);
          expect(walked).toContain(lower(f!.registry));
        } else {
          expect(find!.attributes.universalResolver).toBe(
            lower(manifest.ensv2!.contracts.UniversalResolverV2!.address as string),
          );
        }
        const [execute] = rootSpan.children.filter((c) => step(c) === "execute-resolve-calls");
        expect(execute!.attributes).toMatchObject({ protocol: "ENSv2", resolver: lower(f!.resolver!), name });
        expect(eventsOf(execute!, "read-record").map((e) => e.attributes["ens.protocol.step.result"])).toEqual([
          records.addresses[0].address ?? "null",
        ]);
      }
    }
  }, 180_000);
});

describe("ReverseResolve.trace on the devnet", () => {
  const REVERSE = /* GraphQL */ `
    query Reverse($address: Address!, $accelerate: Boolean!) {
      account(by: { address: $address }) {
        resolve(accelerate: $accelerate) {
          trace
          primaryName(by: { coinType: 60 }) { name { interpreted } }
        }
      }
    }
  `;

  it("the primary name: the reverse name read, then its address record resolved and matched", async () => {
    const address = lower(scenario.crossChainPrimary.address);
    const expected = scenario.crossChainPrimary.names[String(ROOT)];
    expect(expected, "the cross-chain account's root-chain primary name").toBeDefined();
    for (const accelerate of [true, false]) {
      const resolve = (await omnigraph(REVERSE, { address, accelerate })).account.resolve;
      expect(resolve.primaryName.name.interpreted).toBe(expected);
      const roots = resolve.trace as TraceNode[];
      const root = roots[roots.length - 1]!;
      expect(root.name).toBe("reverse-resolution:reverse-resolution");
      expect(root.attributes).toMatchObject({ address, coinType: "60", chainId: ROOT });
      const reverse = root.children.filter((c) => step(c) === "resolve-reverse-name");
      expect(reverse.map((r) => r.attributes.reverseName)).toContain(expected);
      // On the root chain the reverse name is first the `<address>.addr.reverse` name's name record: a forward resolution.
      expect(reverse[0]!.attributes.coinType).toBe("60");
      expect(reverse[0]!.children[0]!.attributes.name).toBe(`${address.slice(2)}.addr.reverse`);
      const [forward] = root.children.filter((c) => step(c) === "forward-resolve-address-record");
      expect(forward!.children[0]!.attributes.name).toBe(expected);
      expect(eventsOf(root, "verify-resolved-address-matches-address")[0]!.attributes["ens.protocol.step.result"]).toBe(
        true,
      );
    }
  }, 120_000);

  it("is empty when no primary name is asked", async () => {
    const data = await omnigraph(`query($a: Address!) { account(by: { address: $a }) { resolve { trace } } }`, {
      a: lower(scenario.crossChainPrimary.address),
    });
    expect(data.account.resolve.trace).toEqual([]);
  });
});

describe("a query that does not select trace builds none (in process, onchain)", () => {
  it("counts the traces built: none without `trace`, one per resolution with it", async () => {
    const namespace = devnetNamespace(env.devnet.manifestPath);
    const rpcUrls = new Map(Object.keys(manifest.chains).map((id) => [Number(id), rpcUrl(Number(id))] as const));
    const resolution = new ResolutionService({
      indexingStatus: { snapshot: async () => undefined },
      namespace,
      rpcUrls,
      accelerationIndexed: false,
    });
    const db = {
      execute: async () => {
        throw new Error("this query reads no table");
      },
    };
    const options = { db, namespace, rpcUrls, resolution } as never;
    const address = lower(scenario.crossChainPrimary.address);
    const query = (withTrace: boolean) => `query($a: Address!) { account(by: { address: $a }) { resolve {
      ${withTrace ? "trace" : ""} primaryName(by: { coinType: 60 }) { name { interpreted }
        resolve { ${withTrace ? "trace" : ""} records { addresses(coinTypes: [60]) { address } } } } } } }`;
    const run = async (withTrace: boolean) => {
      const before = ProtocolTrace.built;
      const r = await executeOmnigraphRequest({ query: query(withTrace), variables: { a: address } }, options);
      expect(r.body.errors).toBeUndefined();
      return { built: ProtocolTrace.built - before, data: r.body.data as any };
    };
    const plain = await run(false);
    expect(plain.built).toBe(0);
    const traced = await run(true);
    // One reverse resolution (ReverseResolve.trace) and one forward (the primary name's ForwardResolve.trace).
    expect(traced.built).toBe(2);
    expect(traced.data.account.resolve.primaryName.name).toEqual(plain.data.account.resolve.primaryName.name);
    expect(traced.data.account.resolve.primaryName.resolve.trace[0].attributes.source).toBe("chain");
  }, 120_000);
});

afterAll(() => {
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});
