import { spawn } from "node:child_process";
import type { Readable } from "node:stream";

/**
 * Runs a program (PostgreSQL's client tools, tar, zstd; the server's programs through runAs), fed `input` on its stdin
 * when given; rejects with its stderr on failure.
 */
export function runTool(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: Readable } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [options.input ? "pipe" : "ignore", "ignore", "pipe"],
      env: options.env ?? process.env,
    });
    if (options.input && child.stdin) {
      const stdin = child.stdin;
      // A tool that exits early (an error) closes its stdin: its exit code reports that, not the broken pipe.
      stdin.on("error", () => {});
      // An input that fails ends the tool's stdin, which then fails on its truncated input.
      options.input.on("error", () => stdin.destroy());
      options.input.pipe(stdin);
    }
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // The hint names the client tools' package for them alone: runAs also runs runuser, bash and the server's programs.
    const hint = command.startsWith("pg_") ? "; on Debian: apt-get install postgresql-client" : "";
    child.on("error", (error) => reject(new Error(`${command} could not start (${error.message})${hint}`)));
    child.on("close", (code) => {
      options.input?.unpipe();
      options.input?.resume();
      if (code === 0) resolve();
      else reject(new Error(`${command} exited with ${code}: ${stderr.trim().slice(0, 2000)}`));
    });
  });
}
