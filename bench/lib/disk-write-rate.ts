import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * The disk's sustained write rate under `directory`, bytes a second: `bytes` of incompressible data written through
 * the page cache and synced, timed to the end of the sync. A mainnet restore writes hundreds of GB, far more than
 * the page cache holds, so its unpack cannot outrun this however fast the pipeline is on a small index. 4 GiB is
 * most of what this machine's page cache holds dirty (20 % of 24 GiB): the sync waits for nearly all of it.
 */
export function diskWriteRate(directory: string, bytes = 4 * 2 ** 30): number {
  const file = join(directory, "disk-write-probe");
  const block = randomBytes(8 * 2 ** 20);
  const started = process.hrtime.bigint();
  const fd = openSync(file, "w");
  try {
    for (let written = 0; written < bytes; written += block.length) writeSync(fd, block);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return bytes / (Number(process.hrtime.bigint() - started) / 1e9);
}
