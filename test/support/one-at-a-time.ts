import { rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/*
 * vitest's setupFile for the files that run one at a time (vitest.config.ts, the "alone" project): each waits here,
 * before its test file is even imported, until no other such file of this vitest run is running.
 *
 * Why not `fileParallelism: false` on that project: vitest 3.2's pool is the run's, not the project's (only vitest 4
 * honours a project's `maxWorkers`), so with two workers for the other files these would run two at a time
 * too. Each file still runs in its own fresh process, as with `fileParallelism: false`.
 *
 * The lock is a listening socket in Linux's abstract namespace, named after the vitest process (every test worker is
 * its child): only one process can listen on a name, and the kernel frees it when that process exits, however it
 * ends. A waiting file connects to the holder and tries again when that connection closes: when the holder lets go
 * (its last afterAll hook, after the test file's own) or dies. Elsewhere the socket is a file, which a holder that
 * died leaves behind: refused connections mean that, and the waiter removes it.
 */

const linux = process.platform === "linux";
const name = linux
  ? `\0nameindex-vitest-one-at-a-time-${process.ppid}`
  : join(tmpdir(), `nameindex-vitest-one-at-a-time-${process.ppid}.sock`);

async function acquire(): Promise<{ server: Server; connections: Set<Socket> }> {
  for (;;) {
    const connections = new Set<Socket>();
    const server = createServer((socket) => {
      connections.add(socket);
      socket.on("close", () => connections.delete(socket));
      socket.on("error", () => undefined);
    });
    const held = await new Promise<boolean>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) =>
        error.code === "EADDRINUSE" ? resolve(false) : reject(error),
      );
      server.listen(name, () => resolve(true));
    });
    if (held) return { server, connections };
    // Held by another file: wait until its process lets go (or is gone already: then the connection fails at once).
    await new Promise<void>((resolve) => {
      const socket = connect(name);
      socket.on("error", (error: NodeJS.ErrnoException) => {
        if (!linux && error.code === "ECONNREFUSED") rmSync(name, { force: true });
        resolve();
      });
      socket.on("close", () => resolve());
    });
  }
}

const lock = await acquire();

// Registered before any hook of the test file, so it runs after all of them (vitest runs after-hooks in reverse).
afterAll(async () => {
  for (const socket of lock.connections) socket.destroy();
  await new Promise<void>((resolve) => lock.server.close(() => resolve()));
});
