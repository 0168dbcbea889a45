import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { readLauncherEnv } from "../../src/config/launcher-env";
import { ensrootOnly, writeManifest } from "./fixtures";

describe("npm start's settings", () => {
  it("defaults to the devnet on the usual ports, with the devnet's seed and size", () => {
    expect(readLauncherEnv({})).toMatchObject({
      NAMESPACE: "devnet",
      PORT: 42069,
      LABELS_PORT: 3223,
      DEVNET_SEED: 1,
      DEVNET_NAMES: 40,
      DATABASE_SCHEMA: "nameindex",
    });
    expect(readLauncherEnv({ PORT: "", DEVNET_NAMES: "" })).toMatchObject({ PORT: 42069, DEVNET_NAMES: 40 });
  });

  it("names every bad value at once, with the indexer's messages for the indexer's variables", () => {
    const bad = {
      NAMESPACE: "mainet",
      PORT: "70000",
      DEVNET_SEED: "x",
      DEVNET_NAMES: "0",
      PONDER_CACHE_BYTES: "256MB",
      MALLOC_ARENA_MAX: "0",
    };
    expect(() => readLauncherEnv(bad)).toThrow(
      [
        "Invalid configuration:",
        "  - PONDER_CACHE_BYTES: must be a number of bytes, e.g. 268435456 (256 MiB)",
        "  - MALLOC_ARENA_MAX: must be 1 or more",
        "  - NAMESPACE: must be one of mainnet, sepolia, sepolia-v2, devnet",
        "  - PORT: must be between 1 and 65535",
        "  - DEVNET_SEED: must be a whole number (the scenario's random seed)",
        "  - DEVNET_NAMES: must be 1 or more",
      ].join("\n"),
    );
    let indexerMessage = "";
    try {
      buildConfig({ DEVNET_MANIFEST: writeManifest(ensrootOnly), PLUGINS: "subgraph", PORT: "70000" });
    } catch (error) {
      indexerMessage = (error as Error).message;
    }
    expect(indexerMessage).toContain("  - PORT: must be between 1 and 65535");
  });

  it("checks the process settings Ponder and Node read before our code runs", () => {
    expect(() => readLauncherEnv({ NODE_OPTIONS: "--max-old-space-size=4g" })).toThrow(
      /NODE_OPTIONS: --max-old-space-size and --max-semi-space-size take a number of MiB/,
    );
    expect(
      readLauncherEnv({
        NODE_OPTIONS: "--max-old-space-size=4096 --enable-source-maps",
        PONDER_CACHE_BYTES: "268435456",
      }),
    ).toMatchObject({
      PONDER_CACHE_BYTES: 268435456,
    });
    expect(() =>
      buildConfig({ DEVNET_MANIFEST: writeManifest(ensrootOnly), PLUGINS: "subgraph", PONDER_CACHE_BYTES: "-1" }),
    ).toThrow(/PONDER_CACHE_BYTES: must be at least 1048576 \(1 MiB\)/);
  });
});
