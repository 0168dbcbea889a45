import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../harness/indexer-harness";
import { buildConfig } from "../../src/config";
import {
  type BuildRecord,
  buildRecordId,
  buildRecordOf,
  describeChanges,
  describeVersions,
  otherPonder,
  runningVersions,
} from "../../src/indexing/build-record";
import { guardBuildRecord } from "../../src/indexing/build-record-store";
import { indexingCodeDigest } from "../../src/indexing/code-digest";
import { fullDevnet, writeManifest } from "../config/fixtures";

const manifest = writeManifest(fullDevnet);
const base = { DEVNET_MANIFEST: manifest, PLUGINS: "subgraph,tokenscope" };
const recordOf = (env: Record<string, string>) => buildRecordOf(buildConfig({ ...base, ...env }), "code-v1");

describe("the build record", () => {
  // Each setting that changes indexed rows, flipped alone: the record names it and its id (part of Ponder's build id)
  // changes. A setting missing here could be flipped on a restart and resume an index of the old interpretation.
  const flips: [string, Record<string, string>, Record<string, string>, RegExp][] = [
    [
      "SUBGRAPH_COMPAT",
      { PLUGINS: "subgraph", LABEL_SET_ID: "subgraph" },
      { PLUGINS: "subgraph", LABEL_SET_ID: "subgraph", SUBGRAPH_COMPAT: "true" },
      /^SUBGRAPH_COMPAT was false, now true$/,
    ],
    ["LABEL_SET_ID", {}, { LABEL_SET_ID: "other" }, /^LABEL_SET_ID\/LABEL_SET_VERSION was demo@0, now other@0$/],
    [
      "LABEL_SET_VERSION",
      {},
      { LABEL_SET_ID: "demo", LABEL_SET_VERSION: "2" },
      /^LABEL_SET_ID\/LABEL_SET_VERSION was demo@0, now demo@2$/,
    ],
    [
      "PLUGINS",
      {},
      { PLUGINS: "subgraph,tokenscope,registrars" },
      /^PLUGINS was subgraph,tokenscope, now subgraph,registrars,tokenscope$/,
    ],
    ["TOKENSCOPE_SALES", {}, { TOKENSCOPE_SALES: "false" }, /^TOKENSCOPE_SALES was true, now false$/],
    ["SUBGRAPH_HISTORY_BLOCKS", {}, { SUBGRAPH_HISTORY_BLOCKS: "1000" }, /^SUBGRAPH_HISTORY_BLOCKS was all, now 1000$/],
    ["SUBGRAPH_HISTORY_BLOCKS", {}, { SUBGRAPH_HISTORY_BLOCKS: "none" }, /^SUBGRAPH_HISTORY_BLOCKS was all, now none$/],
    [
      "NAMEINDEX_NOOP_HANDLERS",
      {},
      { NAMEINDEX_NOOP_HANDLERS: "true" },
      /^NAMEINDEX_NOOP_HANDLERS was false, now true$/,
    ],
    ["END_BLOCK_<chainId>", {}, { END_BLOCK_31337: "100" }, /^END_BLOCK_<chainId> was none, now 31337=100$/],
    [
      "NAMESPACE / contracts",
      {},
      {
        DEVNET_MANIFEST: writeManifest({
          ...fullDevnet,
          ensroot: {
            ...fullDevnet.ensroot,
            contracts: {
              ...fullDevnet.ensroot.contracts,
              Registry: { address: "0x00000000000000000000000000000000000000ff", startBlock: 2 },
            },
          },
        }),
      },
      /^the namespace's contracts .* changed$/,
    ],
  ];
  for (const [setting, before, after, message] of flips) {
    it(`names ${setting} and changes the build id when only it differs`, () => {
      const old = recordOf(before);
      const now = recordOf(after);
      expect(describeChanges(old, now)).toEqual([expect.stringMatching(message)]);
      expect(buildRecordId(now)).not.toBe(buildRecordId(old));
    });
  }

  it("keeps the build id for settings that change no rows (ports, caches, RPC tuning, label source)", () => {
    const old = recordOf({});
    for (const env of [
      { PORT: "5000" } as Record<string, string>,
      { SUBGRAPH_QUERY_CACHE_MB: "0" },
      { NAMEINDEX_HISTORY_PRUNE_SECONDS: "5" },
      { ETH_GETLOGS_BLOCK_RANGE_31337: "100" },
      { LABELS_DB: "/tmp/labels.sqlite" },
      { DATABASE_SCHEMA: "other" },
    ]) {
      const now = recordOf(env);
      expect(describeChanges(old, now)).toEqual([]);
      expect(buildRecordId(now)).toBe(buildRecordId(old));
    }
  });

  it("changes with the indexing code: src outside the API, the schema and the ABIs", () => {
    const copy = mkdtempSync(join(tmpdir(), "nameindex-code-"));
    for (const entry of ["src", "abis", "ponder.schema.ts"])
      cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });
    const digest = indexingCodeDigest(copy);
    expect(indexingCodeDigest(copy)).toBe(digest);
    writeFileSync(join(copy, "src", "api", "extra.ts"), "export const answersOnly = true;\n");
    expect(indexingCodeDigest(copy)).toBe(digest); // the API only reads rows
    writeFileSync(join(copy, "src", "lib", "extra.ts"), "export const writesRows = true;\n");
    const changed = indexingCodeDigest(copy);
    expect(changed).not.toBe(digest);
    writeFileSync(join(copy, "ponder.schema.ts"), "// another schema\n", { flag: "a" });
    expect(indexingCodeDigest(copy)).not.toBe(changed);
    const old = buildRecordOf(buildConfig(base), digest);
    expect(describeChanges(old, buildRecordOf(buildConfig(base), changed))).toEqual([
      "the indexing code (src/ outside src/api/, abis/, ponder.schema.ts) changed",
    ]);
  });

  it("names the releases that run: package.json's version and the installed Ponder", () => {
    const own = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { version: string };
    const ponder = JSON.parse(readFileSync(join(projectRoot, "node_modules/ponder/package.json"), "utf8")) as {
      version: string;
    };
    expect(runningVersions()).toEqual({ nameindex: own.version, ponder: ponder.version });
    expect(recordOf({}).versions).toEqual(runningVersions());
    expect(describeVersions(runningVersions())).toBe(`nameindex ${own.version} (Ponder ${ponder.version})`);
    // nameindex 0.1.0 recorded no versions.
    expect(describeVersions(undefined)).toBe("nameindex 0.1.0 or earlier (Ponder 0.16.10 or earlier)");
  });

  it("leaves the versions out of the id and the settings; of the versions, only another Ponder is a change", () => {
    const now = recordOf({});
    const patchRelease = { ...now, versions: { nameindex: "0.2.1", ponder: "0.17.8" } };
    const docsRelease = { ...now, versions: { nameindex: "0.2.1", ponder: now.versions.ponder } };
    const { versions: _, ...unversioned } = now; // a record as nameindex 0.1.0 wrote it
    expect(buildRecordId(patchRelease)).toBe(buildRecordId(now));
    expect(buildRecordId(unversioned as BuildRecord)).toBe(buildRecordId(now));
    expect(describeChanges(patchRelease, now)).toEqual([]);
    expect(describeChanges(unversioned, now)).toEqual([]);
    expect(otherPonder(docsRelease, now)).toBeUndefined();
    expect(otherPonder(patchRelease, now)).toBe("0.17.8");
    expect(otherPonder(unversioned, now)).toBe("0.16.10 or earlier");
  });
});

describe("the build record beside a PGlite index", () => {
  it("is written by ponder start, compared by ponder serve, and refuses other settings with each one named", async () => {
    const directory = mkdtempSync(join(tmpdir(), "nameindex-pglite-"));
    const config = (env: Record<string, string>) => buildConfig({ ...base, PGLITE_DIRECTORY: directory, ...env });
    const first = buildRecordOf(config({}), "code-v1");
    await guardBuildRecord(
      config({}),
      buildRecordOf(config({ SUBGRAPH_COMPAT: "false", PLUGINS: "subgraph" }), "code-v1"),
      "serve",
    ); // nothing recorded yet: serve writes nothing
    await guardBuildRecord(config({}), first, "start");
    await guardBuildRecord(config({}), first, "start"); // a restart with the same settings resumes
    const flipped = buildRecordOf(config({ TOKENSCOPE_SALES: "false", LABEL_SET_ID: "other" }), "code-v1");
    await expect(guardBuildRecord(config({}), flipped, "start")).rejects.toThrow(
      /Schema "nameindex" holds an index built with other settings that change indexed rows: LABEL_SET_ID\/LABEL_SET_VERSION was demo@0, now other@0; TOKENSCOPE_SALES was true, now false\. .*PGLITE_DIRECTORY/,
    );
    await expect(guardBuildRecord(config({}), flipped, "serve")).rejects.toThrow(
      /TOKENSCOPE_SALES was true, now false/,
    );
    // Another schema in the same directory is another index.
    await guardBuildRecord(config({ DATABASE_SCHEMA: "second" }), flipped, "start");
    const written = JSON.parse(readFileSync(join(directory, "nameindex-build.json"), "utf8")) as {
      schemas: Record<string, BuildRecord>;
    };
    expect(written.schemas.second!.versions).toEqual(runningVersions());
  });

  it("refuses an index of a release with other indexing code, naming both releases and the upgrade recipe", async () => {
    const directory = mkdtempSync(join(tmpdir(), "nameindex-pglite-"));
    const config = buildConfig({ ...base, PGLITE_DIRECTORY: directory });
    // What nameindex 0.1.0 left: its record, without versions, of another code digest.
    const { versions: _, ...previous } = buildRecordOf(config, "code-0.1.0");
    writeFileSync(join(directory, "nameindex-build.json"), JSON.stringify({ schemas: { nameindex: previous } }));
    const current = buildRecordOf(config, "code-0.2.0", { nameindex: "0.2.0", ponder: "0.17.7" });
    const refusal = guardBuildRecord(config, current, "start");
    await expect(refusal).rejects.toThrow(
      'Schema "nameindex" holds an index written by nameindex 0.1.0 or earlier (Ponder 0.16.10 or earlier), and this ' +
        "is nameindex 0.2.0 (Ponder 0.17.7) with other indexing code and another Ponder (the index's 0.16.10 or " +
        "earlier, this 0.17.7): resuming it would mix rows written by both. " +
        "The schema is left as it was. To upgrade, index anew beside it: start this release with a new DATABASE_SCHEMA " +
        "and the same PGLITE_DIRECTORY",
    );
    await expect(guardBuildRecord(config, current, "start")).rejects.toThrow(
      /\(docs\/operations\.md, "Upgrading nameindex"\)\.$/,
    );
    // ponder serve of the new release refuses it too; a settings change on top is named as well.
    await expect(guardBuildRecord(config, current, "serve")).rejects.toThrow(/written by nameindex 0\.1\.0 or earlier/);
    const flipped = buildRecordOf(
      buildConfig({ ...base, PGLITE_DIRECTORY: directory, TOKENSCOPE_SALES: "false" }),
      "code-0.2.0",
    );
    await expect(guardBuildRecord(config, flipped, "start")).rejects.toThrow(
      /Other settings that change indexed rows differ too: TOKENSCOPE_SALES was true, now false\. /,
    );
    // The same code on another Ponder is refused too: Ponder's releases have changed rows (docs/maintainers.md).
    await expect(
      guardBuildRecord(config, buildRecordOf(config, "code-0.1.0", { nameindex: "0.2.1", ponder: "0.17.8" }), "start"),
    ).rejects.toThrow(/with another Ponder \(the index's 0\.16\.10 or earlier, this 0\.17\.8\): resuming/);
    expect(JSON.parse(readFileSync(join(directory, "nameindex-build.json"), "utf8"))).toEqual({
      schemas: { nameindex: previous },
    });
    // A later release with the same code on the same Ponder (an API or documentation release) resumes an index.
    const v020 = buildRecordOf(config, "code-0.2.0", { nameindex: "0.2.0", ponder: "0.17.7" });
    await guardBuildRecord(
      buildConfig({ ...base, PGLITE_DIRECTORY: directory, DATABASE_SCHEMA: "v020" }),
      v020,
      "start",
    );
    await guardBuildRecord(
      buildConfig({ ...base, PGLITE_DIRECTORY: directory, DATABASE_SCHEMA: "v020" }),
      buildRecordOf(config, "code-0.2.0", { nameindex: "0.2.1", ponder: "0.17.7" }),
      "start",
    );
  });
});
