import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Abi, Hex } from "viem";
import { cacheDir, devnetDir } from "./paths";

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

const contractsDir = join(devnetDir, "contracts");

const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
};

let compiled: Record<string, CompiledContract> | undefined;

/**
 * Compiles devnet/contracts/*.sol with solc from npm (standard JSON). The output is cached under
 * .cache/solc/<sha256 of compiler version, sources and settings>.json, so a second start skips solc (~10 s), and kept
 * for the process. The key reads solc's version from its package.json: loading solc itself (an 8 MB emscripten
 * module) costs ~1 s of CPU, which every test file that starts a devnet paid for a cache hit.
 */
export function compileContracts(): Record<string, CompiledContract> {
  compiled ??= compileOrRead();
  return compiled;
}

function compileOrRead(): Record<string, CompiledContract> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(contractsDir)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: readFileSync(join(contractsDir, file), "utf8") };
  }
  const require = createRequire(import.meta.url);
  const { version } = require("solc/package.json") as { version: string };
  const input = { language: "Solidity", sources, settings };
  const key = createHash("sha256").update(`solc ${version}`).update(JSON.stringify(input)).digest("hex");
  const cachePath = join(cacheDir, "solc", `${key}.json`);
  if (existsSync(cachePath)) return JSON.parse(readFileSync(cachePath, "utf8"));

  const solc = require("solc") as { compile(input: string, opts?: unknown): string };

  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path: string) =>
        existsSync(join(contractsDir, path))
          ? { contents: readFileSync(join(contractsDir, path), "utf8") }
          : { error: `not found: ${path}` },
    }),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);

  const result: Record<string, CompiledContract> = {};
  for (const [file, contracts] of Object.entries(output.contracts)) {
    for (const [name, c] of Object.entries(contracts)) {
      // Interfaces and abstract contracts have no bytecode: nothing to deploy.
      if (!c.evm.bytecode.object) continue;
      if (result[name]) throw new Error(`two contracts named ${name} (${file})`);
      result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  mkdirSync(join(cacheDir, "solc"), { recursive: true });
  // Written aside and renamed: another process (two test workers, a test beside `npm start`) never reads half a file.
  const partial = `${cachePath}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(result));
  renameSync(partial, cachePath);
  return result;
}
