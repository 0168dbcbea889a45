// The project's dependency patches (patches/*.patch, patch-package's sequence files): their names, their hunks, and
// whether the installed packages carry them. Plain JavaScript: `npm install` runs it (scripts/apply-patches.mjs)
// before anything can compile TypeScript. docs/patches.md explains every patch.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** `<package>+<version>+<sequence>+<name>.patch`, the package's `/` written `+` (`@electric-sql+pglite`). */
const FILE_NAME =
  /^(?<pkg>(?:@[^+]+\+)?[^+]+)\+(?<version>\d+\.\d+\.\d+[^+]*)\+(?<sequence>\d{3})\+(?<name>[A-Za-z][\w.-]*)\.patch$/;

/** The tag each hunk of a patch carries in a comment, naming the patch it belongs to. */
export const TAG = /nameindex patch \[([^\]]+)\]/g;

/**
 * @typedef {{ file: string; header: string; lines: string[] }} Hunk  one `@@` hunk of one file (`file`: path in the package)
 * @typedef {{ fileName: string; path: string; pkg: string; version: string; sequence: number; name: string; hunks: Hunk[] }} Patch
 */

/** Every patch file under `patchesDir`, in the order patch-package applies them; throws on a file it cannot name. */
export function readPatches(patchesDir) {
  const patches = [];
  for (const fileName of readdirSync(patchesDir).sort()) {
    if (!fileName.endsWith(".patch")) continue;
    const match = FILE_NAME.exec(fileName);
    if (!match) {
      throw new Error(
        `patches/${fileName} is not named <package>+<version>+<NNN>+<name>.patch: every patch is a named patch-package sequence file (docs/patches.md)`,
      );
    }
    const { pkg, version, sequence, name } = match.groups;
    const path = join(patchesDir, fileName);
    patches.push({
      fileName,
      path,
      pkg: pkg.replace("+", "/"),
      version,
      sequence: Number(sequence),
      name,
      hunks: parseHunks(readFileSync(path, "utf8"), pkg.replace("+", "/")),
    });
  }
  return patches.sort((a, b) => a.pkg.localeCompare(b.pkg) || a.sequence - b.sequence);
}

/** The hunks of a unified diff whose paths are `a/node_modules/<pkg>/...`. */
export function parseHunks(text, pkg) {
  const prefix = `b/node_modules/${pkg}/`;
  const hunks = [];
  let file;
  let hunk;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      hunk = undefined;
      file = undefined;
    } else if (line.startsWith("+++ ")) {
      const target = line.slice(4);
      if (!target.startsWith(prefix))
        throw new Error(`a patch of ${pkg} changes ${target}, outside node_modules/${pkg}/`);
      file = target.slice(prefix.length);
    } else if (line.startsWith("@@")) {
      hunk = { file, header: line, lines: [] };
      hunks.push(hunk);
    } else if (hunk && (line.startsWith("+") || line.startsWith("-") || line.startsWith(" "))) {
      hunk.lines.push(line);
    }
  }
  return hunks;
}

/** The lines a hunk adds. */
export const addedLines = (hunk) => hunk.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1));

/** The installed version of `pkg` under `root`, or undefined if it is not installed. */
export function installedVersion(root, pkg) {
  const manifest = join(root, "node_modules", pkg, "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

/**
 * Problems that stop the patches from being what the installed packages run: a package missing or at another
 * version than its patches were made for, or a hunk whose added lines are not in the installed file (not applied,
 * or overwritten). Empty when every patch is in place. `patches` must hold every patch of a package it checks (a later
 * patch may change a line an earlier one added).
 */
export function checkInstalled(root, patches) {
  const problems = [];
  for (const patch of patches) {
    const version = installedVersion(root, patch.pkg);
    if (version === undefined) {
      problems.push(`${patch.fileName}: ${patch.pkg} is not installed`);
      continue;
    }
    if (version !== patch.version) {
      problems.push(
        `${patch.fileName} was made for ${patch.pkg} ${patch.version}, but ${version} is installed: port the change (docs/patches.md, "${patch.name}") to ${version} and rename the file, or remove it`,
      );
      continue;
    }
    // A line this patch adds that a later patch of the package changes again is not expected as it was added.
    const replacedLater = new Set(
      patches
        .filter((p) => p.pkg === patch.pkg && p.sequence > patch.sequence)
        .flatMap((p) =>
          p.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith("-")).map((l) => `${h.file}\n${l.slice(1)}`)),
        ),
    );
    const files = new Map();
    for (const [index, hunk] of patch.hunks.entries()) {
      const path = join(root, "node_modules", patch.pkg, hunk.file);
      if (!files.has(path)) files.set(path, existsSync(path) ? readFileSync(path, "utf8") : undefined);
      const installed = files.get(path);
      const missing = addedLines(hunk).find(
        (line) =>
          line.trim() !== "" &&
          !replacedLater.has(`${hunk.file}\n${line}`) &&
          (installed === undefined || !installed.includes(line)),
      );
      if (missing !== undefined) {
        problems.push(
          `${patch.fileName}: hunk ${index + 1} (${hunk.file} ${hunk.header.split("@@")[1].trim()}) is not in the installed ${patch.pkg}: ${JSON.stringify(missing.trim().slice(0, 100))}`,
        );
      }
    }
  }
  return problems;
}
