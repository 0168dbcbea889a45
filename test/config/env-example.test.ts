import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema } from "../../src/config/env-schema";
import { launcherEnvSchema } from "../../src/config/launcher-env";

/*
 * `.env.example` lists every variable that changes what the indexer or `npm start` does: each one the config schema
 * validates, and each one src/ and scripts/ read from the environment themselves.
 */

const root = join(__dirname, "../..");

/** Node's and glibc's own variables, passed through to Ponder, not ours to document. */
const NOT_OURS = new Set(["NODE_OPTIONS"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [
    ...sourceFiles(join(root, "src")),
    ...sourceFiles(join(root, "scripts")),
    join(root, "ponder.config.ts"),
  ]) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /\b(?:process\.)?env\.([A-Z][A-Z0-9_]*)|process\.env\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g,
    )) {
      const name = m[1] ?? m[2]!;
      if (!NOT_OURS.has(name)) found.set(name, file.slice(root.length + 1));
    }
  }
  return found;
}

describe(".env.example", () => {
  const example = readFileSync(join(root, ".env.example"), "utf8");
  const documented = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));

  it("documents every variable the config schemas validate (the indexer's and npm start's)", () => {
    const missing = [...Object.keys(envSchema.shape), ...Object.keys(launcherEnvSchema.shape)].filter(
      (name) => !documented.has(name),
    );
    expect(missing).toEqual([]);
    // Keyed by chain id, read by prefix.
    expect(documented).toContain("RPC_URL_1");
    expect(documented).toContain("END_BLOCK_1");
    expect(documented).toContain("ETH_GETLOGS_BLOCK_RANGE_1");
  });

  it("documents every variable src/ and scripts/ read from the environment", () => {
    const read = variablesRead();
    expect(read.get("LABELS_DB")).toBe("scripts/start.ts");
    const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });
});
