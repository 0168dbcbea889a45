import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../harness/indexer-harness";
// @ts-expect-error plain JavaScript module (npm's postinstall runs it before TypeScript is available)
import { addedLines, checkInstalled, readPatches, TAG } from "../scripts/lib/patches.mjs";

interface Hunk {
  file: string;
  header: string;
  lines: string[];
}
interface Patch {
  fileName: string;
  pkg: string;
  version: string;
  sequence: number;
  name: string;
  hunks: Hunk[];
}

const patches = readPatches(join(projectRoot, "patches")) as Patch[];
const docs = readFileSync(join(projectRoot, "docs", "patches.md"), "utf8");
const applyScript = join(projectRoot, "scripts", "apply-patches.mjs");

/** docs/patches.md's section of a patch: from its `### <name>` heading to the next heading. */
function section(name: string): string | undefined {
  const start = docs.indexOf(`\n### ${name}\n`);
  if (start < 0) return undefined;
  const next = docs.slice(start + 1).search(/\n#{2,3} /);
  return next < 0 ? docs.slice(start) : docs.slice(start, start + 1 + next);
}

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway project with one installed package (`pkg`, `version`, one file) and the given patch files. */
function scratchProject(
  pkg: { name: string; version: string; file: string; text: string },
  patchFiles: Record<string, string>,
): string {
  const root = mkdtempSync(join(tmpdir(), "nameindex-patches-"));
  temporary.push(root);
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: "scratch", version: "0.0.0", private: true, dependencies: { [pkg.name]: pkg.version } }),
  );
  const dir = join(root, "node_modules", pkg.name);
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: pkg.name, version: pkg.version }));
  writeFileSync(join(dir, pkg.file), pkg.text);
  mkdirSync(join(root, "patches"));
  for (const [file, text] of Object.entries(patchFiles)) writeFileSync(join(root, "patches", file), text);
  return root;
}

const FAKE_PATCH = `diff --git a/node_modules/fake/dist/index.js b/node_modules/fake/dist/index.js
index 0000001..0000002 100644
--- a/node_modules/fake/dist/index.js
+++ b/node_modules/fake/dist/index.js
@@ -1,3 +1,4 @@
 export const a = 1;
+// nameindex patch [double-b]: why
 export const b = 2;
 export const c = 3;
`;

describe("dependency patches (patches/, docs/patches.md)", () => {
  it("are patch-package sequence files, each named after what it changes", () => {
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) expect(patch.name, patch.fileName).toMatch(/^[A-Za-z][\w.-]+$/);
    const names = patches.map((p) => p.name);
    expect(new Set(names).size, "names are unique").toBe(names.length);
  });

  it("tag every hunk with the name of the patch it belongs to, and only with that name", () => {
    for (const patch of patches) {
      for (const [index, hunk] of patch.hunks.entries()) {
        // A minified bundle is one line, so a later patch's hunk rewrites that line with an earlier patch's tag in
        // it: a tag on the removed lines too is carried, not added, and must be an earlier patch's of the package.
        const removed = hunk.lines.filter((line) => line.startsWith("-")).join("\n");
        const carried = new Set([...removed.matchAll(TAG)].map((m) => m[1]));
        const added = [...addedLines(hunk).join("\n").matchAll(TAG)].map((m) => m[1]);
        for (const tag of carried)
          expect(
            patches.some((p) => p.pkg === patch.pkg && p.sequence < patch.sequence && p.name === tag),
            `${patch.fileName} hunk ${index + 1} carries "${tag}", not an earlier patch of ${patch.pkg}`,
          ).toBe(true);
        const tags = added.filter((tag) => !carried.has(tag));
        expect(
          tags.length,
          `${patch.fileName} hunk ${index + 1} (${hunk.file} ${hunk.header}) has no "nameindex patch [${patch.name}]" comment`,
        ).toBeGreaterThan(0);
        expect(new Set(tags), `${patch.fileName} hunk ${index + 1}`).toEqual(new Set([patch.name]));
      }
    }
  });

  it("each have a section in docs/patches.md saying what, why, the evidence and the test, and the document no other", () => {
    for (const patch of patches) {
      const text = section(patch.name);
      expect(text, `docs/patches.md has no "### ${patch.name}" section`).toBeDefined();
      for (const field of ["What", "Why", "Evidence", "Test", "Upstream"]) {
        expect(text, `docs/patches.md "### ${patch.name}" has no **${field}**`).toContain(`**${field}**`);
      }
      expect(text).toContain(patch.fileName);
    }
    const documented = [...docs.matchAll(/\n### ([^\n]+)\n/g)].map((m) => m[1]);
    const names = new Set(patches.map((p) => p.name));
    const dropped = new Set([...docs.matchAll(/\n#### Dropped: ([^\n]+)\n/g)].map((m) => m[1]));
    for (const name of documented)
      expect(names.has(name) || dropped.has(name), `docs/patches.md documents "${name}", which no patch file has`).toBe(
        true,
      );
  });

  it("are all in the installed packages", () => {
    expect(checkInstalled(projectRoot, patches)).toEqual([]);
  });

  it("stop npm install with the patch's name when its package is at another version", () => {
    const root = scratchProject(
      {
        name: "fake",
        version: "1.0.1",
        file: "dist/index.js",
        text: "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
      },
      {
        "fake+1.0.0+001+double-b.patch": FAKE_PATCH,
      },
    );
    const run = spawnSync(process.execPath, [applyScript, root], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("fake+1.0.0+001+double-b.patch was made for fake 1.0.0, but 1.0.1 is installed");
    expect(run.stderr).toContain("docs/patches.md");
  });

  it("stop npm install with the patch's name when it no longer applies to its package", () => {
    const root = scratchProject(
      {
        name: "fake",
        version: "1.0.0",
        file: "dist/index.js",
        text: "export const a = 1;\nexport const b = 20;\nexport const c = 3;\n",
      },
      {
        "fake+1.0.0+001+double-b.patch": FAKE_PATCH,
      },
    );
    const run = spawnSync(process.execPath, [applyScript, root], { encoding: "utf8", cwd: root });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "fake+1.0.0+001+double-b.patch: hunk 1 (dist/index.js -1,3 +1,4) is not in the installed fake",
    );
  });

  it("apply cleanly, and report so, when the package is as the patch expects", () => {
    const root = scratchProject(
      {
        name: "fake",
        version: "1.0.0",
        file: "dist/index.js",
        text: "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
      },
      {
        "fake+1.0.0+001+double-b.patch": FAKE_PATCH,
      },
    );
    const run = spawnSync(process.execPath, [applyScript, root], { encoding: "utf8", cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("apply-patches: 1 patches in place (fake@1.0.0)");
    expect(readFileSync(join(root, "node_modules", "fake", "dist", "index.js"), "utf8")).toContain(
      "nameindex patch [double-b]",
    );
  });

  it("refuse a patch file that is not a named sequence file", () => {
    const root = scratchProject(
      { name: "fake", version: "1.0.0", file: "dist/index.js", text: "export const a = 1;\n" },
      { "fake+1.0.0.patch": FAKE_PATCH },
    );
    const run = spawnSync(process.execPath, [applyScript, root], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("patches/fake+1.0.0.patch is not named <package>+<version>+<NNN>+<name>.patch");
  });
});
