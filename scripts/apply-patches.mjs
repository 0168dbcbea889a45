#!/usr/bin/env node
// npm's postinstall: applies patches/*.patch with patch-package, then checks that every hunk is in the installed
// packages. Fails, naming the patch and what to do, when a patch was made for another version of its package or no
// longer applies (an upgrade): docs/patches.md says what each patch does and how to port or drop it.
//
//   node scripts/apply-patches.mjs [projectRoot]   (default: the current directory, as npm runs it)
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compactInstalledExports } from "./lib/compact-exports.mjs";
import { checkInstalled, installedVersion, readPatches } from "./lib/patches.mjs";

const root = resolve(process.argv[2] ?? process.cwd());
const patchPackage = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "patch-package", "index.js");

function fail(lines) {
  console.error(
    [
      "",
      "Dependency patches (patches/) do not match the installed packages:",
      ...lines.map((l) => `  - ${l}`),
      "",
      'See docs/patches.md ("Upgrading") before changing them.',
      "",
    ].join("\n"),
  );
  process.exit(1);
}

let patches;
try {
  patches = readPatches(join(root, "patches"));
} catch (error) {
  fail([error.message]);
}

// patch-package only warns when a package's version differs from the one a patch names, then applies it anyway.
const wrongVersion = patches.filter(
  (p) => installedVersion(root, p.pkg) !== undefined && installedVersion(root, p.pkg) !== p.version,
);
if (wrongVersion.length > 0) fail(checkInstalled(root, wrongVersion));

const run = spawnSync(process.execPath, [patchPackage, "--error-on-fail"], { cwd: root, stdio: "inherit" });
if (run.status !== 0) {
  const problems = checkInstalled(root, patches);
  fail(
    problems.length > 0 ? problems : [`patch-package exited with ${run.status ?? run.signal} (its output is above)`],
  );
}
const problems = checkInstalled(root, patches);
if (problems.length > 0) fail(problems);
console.log(
  `apply-patches: ${patches.length} patches in place (${[...new Set(patches.map((p) => `${p.pkg}@${p.version}`))].join(", ")})`,
);

// Not a patch: drizzle-orm's 439-entry exports map as the same map with one pattern (scripts/lib/compact-exports.mjs
// says why; docs/patches.md, "drizzle-orm's exports map"). Already compact (a second run) or irregular: left alone.
const compacted = compactInstalledExports(root, "drizzle-orm");
if (compacted) {
  console.log(
    `apply-patches: drizzle-orm's exports map compacted (package.json ${compacted.before} → ${compacted.after} bytes)`,
  );
}
