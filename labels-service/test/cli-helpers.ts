import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

export const BIN = fileURLToPath(new URL("../bin/labels-service.mjs", import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI; with `stdin: "pipe"` the caller writes its standard input (`child.stdin`). */
export function startCli(
  args: string[],
  options: { stdin?: "ignore" | "pipe" } = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: [options.stdin ?? "ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export const runCli = (args: string[]) => startCli(args).done;

/**
 * Starts `ingest -` and writes `input` into its standard input, leaving the pipe open: however fast the machine, the
 * ingest cannot reach its commit before the caller interrupts it (or ends the pipe).
 */
export async function startFedIngest(
  input: Uint8Array,
  args: string[],
): Promise<{ child: ChildProcess; done: Promise<CliRun> }> {
  const ingest = startCli(["ingest", "-", ...args], { stdin: "pipe" });
  const stdin = ingest.child.stdin!;
  stdin.on("error", () => {}); // EPIPE once the process is gone
  for (let at = 0; at < input.length && ingest.child.exitCode === null; at += 1 << 20)
    if (!stdin.write(input.subarray(at, at + (1 << 20)))) await Promise.race([once(stdin, "drain"), ingest.done]);
  return ingest;
}

/** True while another connection holds the database's write lock, i.e. an ingest transaction is open. */
function writeLocked(dbPath: string): boolean {
  const db = new Database(dbPath, { timeout: 0 });
  try {
    db.exec("BEGIN IMMEDIATE");
    db.exec("ROLLBACK");
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_BUSY") return true;
    throw error;
  } finally {
    db.close();
  }
}

/** Waits until an ingest process has opened its write transaction (and so is past all its checks). */
export async function waitForIngestTransaction(
  dbPath: string,
  ingest: { child: ChildProcess; done: Promise<CliRun> },
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ingest.child.exitCode !== null) {
      const run = await ingest.done;
      throw new Error(`ingest exited early with ${run.code}: ${run.stderr || run.stdout}`);
    }
    try {
      if (writeLocked(dbPath)) return;
    } catch {
      /* database file not created yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("ingest never opened its transaction");
}
