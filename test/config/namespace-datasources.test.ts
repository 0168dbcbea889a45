import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import bundled from "../../src/namespaces/datasources.json";
import { composeContracts } from "../../src/plugins/compose";
import { problemsOf } from "./fixtures";

/** RPC URLs for every chain sepolia-v2's default plugins index. */
const sepoliaV2Rpc = {
  RPC_URL_11155111: "https://sepolia.example",
  RPC_URL_84532: "https://base-sepolia.example",
  RPC_URL_59141: "https://linea-sepolia.example",
  RPC_URL_11155420: "https://op-sepolia.example",
  RPC_URL_421614: "https://arbitrum-sepolia.example",
  RPC_URL_534351: "https://scroll-sepolia.example",
};

function writeFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "nameindex-datasources-")), "datasources.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

/** A copy of the bundled file with one change made by `edit`. */
function editedCopy(edit: (file: typeof bundled) => void): string {
  const copy = structuredClone(bundled);
  edit(copy);
  return writeFile(copy);
}

describe("NAMESPACE=sepolia-v2", () => {
  it("runs subgraph, protocol-acceleration, registrars, tokenscope and ensv2 by default, on Sepolia's six chains", () => {
    const config = buildConfig({ NAMESPACE: "sepolia-v2", ...sepoliaV2Rpc });
    expect(config.namespace.name).toBe("sepolia-v2");
    expect(config.plugins).toEqual(["subgraph", "protocol-acceleration", "registrars", "tokenscope", "ensv2"]);
    expect([...config.rpcUrls.keys()].sort((a, b) => a - b)).toEqual([
      59141, 84532, 421614, 534351, 11155111, 11155420,
    ]);
    expect(config.labelSet).toEqual({ labelSetId: "subgraph", labelSetVersion: 0 });
  });

  it("indexes the redeployed ENSv1 and ENSv2 at their addresses and blocks, without an old registry or legacy controller", () => {
    const contracts = composeContracts(buildConfig({ NAMESPACE: "sepolia-v2", ...sepoliaV2Rpc }));
    expect(contracts["subgraph/Registry"]).toMatchObject({
      chain: "sepolia",
      address: "0xb6fb46e1458915dd828633d91e1df8e4c3f2d4dd",
      startBlock: 10400000,
    });
    expect(contracts["subgraph/Resolver"]).toMatchObject({ chain: "sepolia", startBlock: 3702721 });
    expect(contracts["subgraph/Resolver"]!.address).toBeUndefined();
    expect(contracts["subgraph/NameWrapper"]).toMatchObject({
      address: "0x250a6c640297f605b63c6e91c7cd376f04b288da",
      startBlock: 10400000,
    });
    expect(contracts["subgraph/RegistryOld"]).toBeUndefined();
    expect(contracts["subgraph/LegacyEthRegistrarController"]).toBeUndefined();
    expect(contracts["ensv2/ETHRegistrar"]).toMatchObject({
      chain: "sepolia",
      address: "0x8c2e866b439358c41ae05de9cbe8a00bfefaffca",
      startBlock: 10921916,
    });
    expect(contracts["ensv2/Registry"]).toMatchObject({ chain: "sepolia", startBlock: 10921916 });
    expect(contracts["ensv2/Registry"]!.address).toBeUndefined();
    // Registries' transfers: the root's at its address, the others' as the children SubregistryUpdated names.
    expect(contracts["ensv2/RootRegistry"]).toMatchObject({
      address: "0xc960f7217d3643b525ef36bec8adf86953cd9ab8",
      startBlock: 10921916,
    });
    expect(contracts["ensv2/LinkedRegistry"]).toMatchObject({
      startBlock: 10921916,
      address: { event: { name: "SubregistryUpdated" }, parameter: "subregistry" },
    });
    expect((contracts["ensv2/LinkedRegistry"]!.address as { address?: string }).address).toBeUndefined();
    expect(contracts["protocol-acceleration/ensroot/DefaultReverseRegistrar"]).toMatchObject({
      address: "0x26997c9d0f3dcbae3f78c69e621a3926ee30bb98",
    });
    expect(contracts["tokenscope/ensroot/Seaport"]).toBeUndefined();
  });

  it("names the plugins sepolia-v2 cannot run", () => {
    expect(problemsOf({ NAMESPACE: "sepolia-v2", PLUGINS: "subgraph,basenames", ...sepoliaV2Rpc })).toEqual([
      'PLUGINS: plugin "basenames" needs datasource "basenames", which namespace "sepolia-v2" lacks',
    ]);
  });

  it("keeps mainnet's defaults, and gives sepolia the defaults it can run (no 3DNS)", () => {
    const sepolia = buildConfig({ NAMESPACE: "sepolia", ...sepoliaV2Rpc });
    expect(sepolia.plugins).toEqual([
      "subgraph",
      "basenames",
      "lineanames",
      "protocol-acceleration",
      "registrars",
      "tokenscope",
    ]);
  });
});

describe("NAMESPACE_DATASOURCES_FILE", () => {
  it("uses an address and start block the replacement file gives", () => {
    const file = editedCopy((f) => {
      f["sepolia-v2"].datasources.ensv2.contracts.ETHRegistrar = {
        address: "0x00000000000000000000000000000000000000AB",
        startBlock: 11000000,
      };
    });
    const config = buildConfig({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: file, ...sepoliaV2Rpc });
    expect(config.namespace.datasources.ensv2!.contracts.ETHRegistrar).toEqual({
      address: "0x00000000000000000000000000000000000000ab",
      startBlock: 11000000,
    });
    expect(composeContracts(config)["ensv2/ETHRegistrar"]).toMatchObject({
      address: "0x00000000000000000000000000000000000000ab",
      startBlock: 11000000,
    });
  });

  it("adds a datasource to a namespace defined in code: an ENSv2 section for mainnet turns the ensv2 plugin on", () => {
    const ensv2 = structuredClone(bundled["sepolia-v2"].datasources.ensv2);
    ensv2.chain = { id: 1, name: "mainnet" };
    const file = writeFile({ mainnet: { datasources: { ensv2 } } });
    const config = buildConfig({
      NAMESPACE: "mainnet",
      NAMESPACE_DATASOURCES_FILE: file,
      RPC_URL_1: "https://eth.example",
      RPC_URL_8453: "https://base.example",
      RPC_URL_59144: "https://linea.example",
      RPC_URL_10: "https://op.example",
      RPC_URL_42161: "https://arbitrum.example",
      RPC_URL_534352: "https://scroll.example",
    });
    expect(config.plugins).toContain("ensv2");
    expect(config.namespace.datasources.ensroot!.contracts.Registry!.address).toBe(
      "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e",
    );
    expect(composeContracts(config)["ensv2/ETHRegistrar"]).toMatchObject({
      chain: "mainnet",
      address: "0x8c2e866b439358c41ae05de9cbe8a00bfefaffca",
    });
  });

  it("names the file and the field of a malformed value", () => {
    const badAddress = editedCopy((f) => {
      f["sepolia-v2"].datasources.ensroot.contracts.BaseRegistrar.address = "0x1234";
    });
    expect(problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: badAddress, ...sepoliaV2Rpc })).toEqual([
      `NAMESPACE_DATASOURCES_FILE: ${badAddress} is invalid: sepolia-v2.datasources.ensroot.contracts.BaseRegistrar.address: must be a 0x-prefixed 20-byte hex address`,
    ]);
    const badBlock = editedCopy((f) => {
      (f["sepolia-v2"].datasources.ensv2.contracts.RootRegistry as { startBlock: unknown }).startBlock = "soon";
    });
    expect(problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: badBlock, ...sepoliaV2Rpc })).toEqual([
      `NAMESPACE_DATASOURCES_FILE: ${badBlock} is invalid: sepolia-v2.datasources.ensv2.contracts.RootRegistry.startBlock: must be a block number`,
    ]);
  });

  it("refuses an ENSv2 deployment without its root registry, an unknown namespace or datasource, and a chain named two ways", () => {
    const noRoot = editedCopy((f) => {
      delete (f["sepolia-v2"].datasources.ensv2.contracts as Record<string, unknown>).RootRegistry;
    });
    expect(problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: noRoot, ...sepoliaV2Rpc })).toEqual([
      `NAMESPACE_DATASOURCES_FILE: ${noRoot} is invalid: sepolia-v2.datasources.ensv2.contracts.RootRegistry.address: is required: the ensv2 plugin starts from it`,
    ]);
    const unknown = writeFile({
      holesky: { datasources: {} },
      "sepolia-v2": { datasources: { ensroots: bundled["sepolia-v2"].datasources.ensroot } },
    });
    const [problem] = problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: unknown, ...sepoliaV2Rpc });
    expect(problem).toContain(
      `NAMESPACE_DATASOURCES_FILE: ${unknown} is invalid: holesky: must be a namespace this file can hold (mainnet, sepolia, sepolia-v2)`,
    );
    expect(problem).toContain("sepolia-v2.datasources.ensroots: must be one of ensroot,");
    const twoNames = editedCopy((f) => {
      f["sepolia-v2"].datasources.ensv2.chain.name = "sepoliaTwo";
    });
    expect(problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: twoNames, ...sepoliaV2Rpc })).toEqual([
      'NAMESPACE_DATASOURCES_FILE: namespace "sepolia-v2": ensv2: chain 11155111 is "sepolia" elsewhere, "sepoliaTwo" here',
    ]);
  });

  it("says when the file is missing or not JSON", () => {
    expect(
      problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: "/nonexistent/datasources.json" }),
    ).toEqual(["NAMESPACE_DATASOURCES_FILE: /nonexistent/datasources.json cannot be read: ENOENT"]);
    const notJson = writeFile("{ sepolia-v2: }");
    expect(problemsOf({ NAMESPACE: "sepolia-v2", NAMESPACE_DATASOURCES_FILE: notJson })[0]).toMatch(
      new RegExp(`^NAMESPACE_DATASOURCES_FILE: ${notJson} is not valid JSON: `),
    );
  });
});
