import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { FollowingLogSummary } from "./ponder-log-filter";
import { withPonderMemoryDefaults } from "./ponder-memory-env";
import { withProductionNodeEnv } from "./production-node-env";

export interface PonderProcess {
  child: ChildProcess;
  url: string;
  /**
   * Resolves when Ponder's /ready answers 200 (backfill done), rejects if the process exits first. Polls every
   * `pollMs`: by default 1 s with `onProgress` (`npm start`'s progress line, which also reads /status), else 200 ms, so
   * that the poll adds little to a test's or a benchmark's wait (a /ready request is a flag read).
   */
  ready(onProgress?: (status: Record<string, { block?: { number: number } }>) => void, pollMs?: number): Promise<void>;
  /** SIGTERM (Ponder's clean shutdown: the schema unlocked); resolves once the process has exited and its log is written. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: no shutdown hooks run); resolves once the process has exited. */
  kill(): Promise<void>;
}

export interface PonderStartOptions {
  projectRoot: string;
  command: "start" | "serve";
  port: number;
  schema: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  /**
   * Ponder's root, relative to `projectRoot`, when it is not the project root itself. Only for trees of earlier
   * commits that kept it in ponder/ (bench:patch-ab's AB_COMMITS); this checkout's root is the project root.
   */
  ponderRoot?: string;
}

/** Runs `ponder start|serve` bound to 127.0.0.1 on a known port; its output goes to a log file (per-block lines summarized). */
export function startPonder(options: PonderStartOptions): PonderProcess {
  const bin = join(options.projectRoot, "node_modules", ".bin", "ponder");
  const log = createWriteStream(options.logFile, { flags: "a" });
  const child = spawn(
    bin,
    [
      ...(options.ponderRoot ? ["--root", options.ponderRoot] : []),
      "--log-format",
      "pretty",
      options.command,
      "--schema",
      options.schema,
      "-p",
      String(options.port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: options.projectRoot,
      // A plain-text log file: picocolors colours whenever FORCE_COLOR is set (even "0"); NO_COLOR wins over it.
      env: {
        ...withProductionNodeEnv(withPonderMemoryDefaults(options.env)),
        PONDER_TELEMETRY_DISABLED: "true",
        FORCE_COLOR: "0",
        NO_COLOR: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // Ponder logs on stdout; its per-block lines while following are summarized (ponder-log-filter.ts).
  const summary = new FollowingLogSummary();
  child.stdout?.pipe(summary).pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const summarized = new Promise<void>((resolve) => summary.once("end", () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // "close" comes after the last output is flushed into the log; ending the log earlier loses (or breaks on) it.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));

  return {
    child,
    url,
    async ready(onProgress, pollMs = onProgress ? 1000 : 200) {
      let done = false;
      const poll = (async () => {
        while (!done) {
          try {
            const res = await fetch(`${url}/ready`);
            if (res.status === 200) return;
            if (onProgress) {
              const status = (await fetch(`${url}/status`).then((r) => (r.ok ? r.json() : undefined))) as
                | Record<string, { block?: { number: number } }>
                | undefined;
              if (status) onProgress(status);
            }
          } catch {
            // Not listening yet.
          }
          await new Promise((r) => setTimeout(r, pollMs));
        }
      })();
      const failed = exited.then(async (code) => {
        if (done) return;
        await closed;
        // The caller may delete the log's folder on the way out: the error carries the log's end.
        throw new Error(
          `ponder ${options.command} exited with code ${code} before it was ready; the end of ${options.logFile}:\n${logTail(options.logFile)}`,
        );
      });
      try {
        await Promise.race([poll, failed]);
      } finally {
        done = true;
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await closed;
      await summarized;
      log.end();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Ponder's shutdown: it stops indexing, unlocks the schema (`is_locked` 0 in _ponder_meta, so the next start
      // does not wait out the lock) and exits, within its own 5 s grace (docs/operations.md, "Running under a
      // supervisor"). The SIGKILL is for a process that does not exit at all, and leaves the schema locked.
      child.kill("SIGTERM");
      const timeout = setTimeout(() => {
        log.write(`[ponder-process] no exit 15 s after SIGTERM: SIGKILL (the schema stays locked)\n`);
        child.kill("SIGKILL");
      }, 15_000);
      await exited;
      clearTimeout(timeout);
      await closed;
      await summarized;
      log.end();
    },
  };
}

/** The log from its first ERROR line (what went wrong first), and its last lines. */
function logTail(file: string, lines = 40): string {
  try {
    const all = readFileSync(file, "utf8").split("\n");
    const firstError = all.findIndex((l) => / ERROR /.test(l));
    const last = all.slice(-lines);
    if (firstError < 0 || firstError >= all.length - lines) return last.join("\n");
    return [...all.slice(firstError, firstError + lines), "…", ...last].join("\n");
  } catch {
    return "(no log)";
  }
}
