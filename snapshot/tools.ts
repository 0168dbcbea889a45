import { spawn } from "node:child_process";

/** Runs one of PostgreSQL's client tools (pg_dump, pg_restore) or tar; rejects with its stderr on failure. */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (error) =>
      reject(new Error(`${command} could not start (${error.message}); on Debian: apt-get install postgresql-client`)),
    );
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim().slice(0, 2000)}`)),
    );
  });
}
