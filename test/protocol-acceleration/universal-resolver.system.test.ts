import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ens_normalize } from "@adraffy/ens-normalize";
import { namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDevnet, scenarioOf, startDevnet } from "../../devnet/src/index";
import { labelIndexAt, OnchainBackend } from "../../src/api/shared/resolution/onchain-backend";
import { ancestorsOf, routeName } from "../../src/api/shared/resolution/routing";
import { dnsEncode } from "../../src/lib/dns-wire";
import { devnetNamespace } from "../../src/namespaces/devnet";
import type { Namespace } from "../../src/namespaces/types";

/*
 * The onchain resolution path finds root-chain resolvers through the namespace's UniversalResolver (one
 * `findResolver` eth_call) and answers exactly what walking the registry answers. The devnet deploys a
 * UniversalResolver (the rehearsal places it at ENS's 0xeeee…eeee proxy address); a counting JSON-RPC proxy in front
 * of the root chain shows which contract the backend asked.
 */

const ROOT = 31337;
let dir: string;
let devnet: RunningDevnet;
let proxy: Server;
let proxyUrl: string;
const callsTo = new Map<string, number>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "universal-resolver-"));
  devnet = await startDevnet({ seed: 3, names: 5, manifestPath: join(dir, "manifest.json") });
  const upstream = devnet.manifest.chains[String(ROOT)]!.rpcUrl;
  proxy = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body) as
      | { method: string; params: { to?: string }[] }
      | { method: string; params: { to?: string }[] }[];
    for (const r of Array.isArray(parsed) ? parsed : [parsed]) {
      if (r.method === "eth_call")
        callsTo.set(r.params[0]!.to!.toLowerCase(), (callsTo.get(r.params[0]!.to!.toLowerCase()) ?? 0) + 1);
    }
    const answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const isNormalized = (name: string) => {
  try {
    return ens_normalize(name) === name;
  } catch {
    return false;
  }
};

describe("labelIndexAt", () => {
  it("counts the labels before a byte offset of a wire-format name", () => {
    const wire = dnsEncode("a.bc.eth");
    expect([0, 2, 5, 9].map((o) => labelIndexAt(wire, o))).toEqual([0, 1, 2, 3]);
    expect(labelIndexAt(wire, 1)).toBeUndefined();
    expect(labelIndexAt(wire, 40)).toBeUndefined();
  });
});

describe("the onchain path on the ENS root chain", () => {
  it("asks the UniversalResolver, not the registry, and finds what the registry walk finds", async () => {
    const namespace = devnetNamespace(devnet.manifestPath);
    const universal = namespace.datasources.ensroot!.contracts.UniversalResolver!.address!.toLowerCase();
    const registry = namespace.datasources.ensroot!.contracts.Registry!.address!.toLowerCase();
    const withoutUniversal: Namespace = structuredClone(namespace);
    delete withoutUniversal.datasources.ensroot!.contracts.UniversalResolver;
    const urls = (root: string) =>
      new Map(
        Object.entries(devnet.manifest.chains).map(([id, c]) => [Number(id), Number(id) === ROOT ? root : c.rpcUrl]),
      );
    const viaUniversal = new OnchainBackend(namespace, urls(proxyUrl));
    const viaRegistry = new OnchainBackend(withoutUniversal, urls(devnet.manifest.chains[String(ROOT)]!.rpcUrl));

    const rootNames = scenarioOf(devnet.manifest)
      .names.filter((f) => f.chainId === ROOT && isNormalized(f.name) && namehash(f.name) === f.node)
      .map((f) => f.name);
    const names = [
      ...rootNames,
      ...rootNames.slice(0, 10).map((n) => `wild-child.${n}`),
      "never-registered-anywhere.eth",
      "xyz",
    ];
    let found = 0;
    let wildcard = 0;
    for (const name of names) {
      const route = routeName(name, namespace).registry!;
      const ancestors = ancestorsOf(name);
      const expected = await viaRegistry.findResolver(route, ancestors);
      expect(await viaUniversal.findResolver(route, ancestors), name).toEqual(expected);
      if (expected) found++;
      if (expected && expected.index > 0) wildcard++;
    }
    expect(found).toBeGreaterThan(20);
    expect(wildcard).toBeGreaterThan(5);
    expect(callsTo.get(universal)).toBe(names.length);
    expect(callsTo.get(registry) ?? 0).toBe(0);
  }, 120_000);
});
