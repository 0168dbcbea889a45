import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * Unpacks a published package into `dir` with `npm pack` unless `dir/<marker>` already exists. For packages we read
 * but cannot install as dependencies (truffle builds that drag in truffle; a package whose dependency the registry
 * lacks).
 */
export function npmPackOnce(
  name: string,
  version: string,
  dir: string,
  marker: string,
  log: (line: string) => void = () => {},
): void {
  if (existsSync(join(dir, marker))) return;
  log(`fetching ${name}@${version} with npm pack`);
  // Per process: two processes fetching at once (test workers, a devnet beside a test run) must not empty each
  // other's folder mid-`npm pack` (a clean-clone CI run failed that way).
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const out = execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", tmp, "--json", "--silent"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  extractTarGz(join(tmp, filename.replace(/^@/, "").replace("/", "-")), tmp);
  // Another process may have finished first: its copy stays (it may be reading it), this one goes.
  if (!existsSync(join(dir, marker))) {
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(tmp, "package"), dir);
  }
  rmSync(tmp, { recursive: true, force: true });
}

/** A minimal reader for npm's tarballs: ustar headers of 512 bytes, regular files only. */
function extractTarGz(file: string, dest: string): void {
  const tar = gunzipSync(readFileSync(file));
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, len: number) =>
      header
        .subarray(start, start + len)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if ((type === "0" || type === "") && !name.includes("..")) {
      const target = join(dest, name);
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, body);
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
}
