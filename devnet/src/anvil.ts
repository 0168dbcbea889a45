import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join } from "node:path";
import { DEFAULT_TXS_PER_BLOCK, GAS_PER_TX } from "./chain";
import { runDir } from "./paths";

export interface AnvilChain {
  chainId: number;
  rpcUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** The anvil binary from @foundry-rs/anvil's platform package (its postinstall is not run, so we spawn it ourselves). */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return join(
      require.resolve(`${pkg}/package.json`),
      "..",
      "bin",
      process.platform === "win32" ? "anvil.exe" : "anvil",
    );
  } catch {
    throw new Error(`anvil is not installed for ${process.platform}/${process.arch} (missing ${pkg}); run npm install`);
  }
}

/** A port the OS says is free right now (bind to 0 and read it back); anvil may still lose a race, so callers retry. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const running = new Set<import("node:child_process").ChildProcess>();
let exitHookInstalled = false;

/** Anvils must not outlive the process that started them, even when it dies on an error. */
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) if (child.pid && child.exitCode === null) process.kill(child.pid, "SIGKILL");
  });
}

export interface StartAnvilOptions {
  chainId: number;
  /** Log file name under .devnet/logs/ (default anvil-<chainId>-<port>.log). */
  logName?: string;
  /** Extra accounts beyond anvil's default 10, all funded. */
  accounts?: number;
  /** Unix seconds of the genesis block; later blocks keep that offset from the wall clock until it is reset. */
  genesisTimestamp?: number;
  /** Number of the genesis block (default 0). */
  genesisNumber?: number;
  /**
   * A state file (anvil's JSON, from `anvil_dumpState` gunzipped) to start from: accounts, blocks, transactions and
   * receipts, so a chain played once is served again without replaying it. Genesis options are then ignored.
   */
  loadStatePath?: string;
  /**
   * Keep no past states (`--prune-history`): blocks, transactions and receipts stay, but eth_call at an old block
   * fails. Playing a large scenario otherwise holds every block's state in memory (14.5 GiB for 50,000 names).
   */
  pruneHistory?: boolean;
  /** Transactions the scenario puts in one block (default 200): the block gas limit leaves room for that many. */
  txsPerBlock?: number;
  /** Listen on this port rather than on one the OS says is free. */
  port?: number;
}

/** 3,000,000,000 at the default 200 transactions per block, as before the size was configurable. */
const blockGasLimit = (txsPerBlock: number) => (BigInt(txsPerBlock) * GAS_PER_TX * 5n) / 2n;

/**
 * Starts one anvil on 127.0.0.1 with its own chain id, on a free port, and waits until it answers eth_chainId.
 * Automine stays on (deploys are simple); the scenario switches it off to put up to `txsPerBlock` transactions in a block.
 */
export async function startAnvil(opts: StartAnvilOptions): Promise<AnvilChain> {
  installExitHook();
  mkdirSync(runDir, { recursive: true });
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = opts.port ?? (await freePort());
    // One log per process (several devnets may run at once); removed when we stop it, kept if anvil died by itself.
    const logPath = join(runDir, "logs", opts.logName ?? `anvil-${opts.chainId}-${port}.log`);
    mkdirSync(join(runDir, "logs"), { recursive: true });
    const logFd = openSync(logPath, "w");
    const child = spawn(
      anvilBinary(),
      [
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--chain-id",
        String(opts.chainId),
        "--accounts",
        String(opts.accounts ?? 20),
        "--balance",
        "10000000",
        // Room for a block of heavy transactions (2.5× their gas allowance), and no fee noise in balances.
        "--gas-limit",
        String(blockGasLimit(opts.txsPerBlock ?? DEFAULT_TXS_PER_BLOCK)),
        "--block-base-fee-per-gas",
        "0",
        "--disable-code-size-limit",
        "--order",
        "fifo",
        ...(opts.pruneHistory ? ["--prune-history"] : []),
        ...(opts.loadStatePath
          ? ["--load-state", opts.loadStatePath]
          : [
              ...(opts.genesisTimestamp !== undefined ? ["--timestamp", String(opts.genesisTimestamp)] : []),
              ...(opts.genesisNumber ? ["--number", String(opts.genesisNumber)] : []),
            ]),
      ],
      { stdio: ["ignore", logFd, logFd] },
    );
    closeSync(logFd);
    running.add(child);
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.once("exit", () => running.delete(child));
    const rpcUrl = `http://127.0.0.1:${port}`;
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        process.kill(child.pid, "SIGTERM");
        const timer = setTimeout(
          () => child.pid && child.exitCode === null && process.kill(child.pid, "SIGKILL"),
          3000,
        );
        await exited;
        clearTimeout(timer);
        rmSync(logPath, { force: true });
      }
    };
    try {
      const exitStatus = () =>
        child.exitCode !== null
          ? `code ${child.exitCode}`
          : child.signalCode !== null
            ? `signal ${child.signalCode}`
            : undefined;
      // Loading a large state file takes anvil a while before it listens (75.7 s for the three chains of a
      // 50,000-name devnet, 1.9 GB of state, at load 8).
      await waitForChainId(rpcUrl, opts.chainId, exitStatus, opts.loadStatePath ? 600_000 : 20_000);
      watchParent(child.pid!);
      return { chainId: opts.chainId, rpcUrl, pid: child.pid!, stop };
    } catch (error) {
      // Keep anvil's last words for the error before the log goes with stop().
      const tail = existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").slice(-3).join(" | ") : "";
      lastError = `${error instanceof Error ? error.message : String(error)}${tail ? ` (anvil: ${tail})` : ""}`;
      await stop();
      rmSync(logPath, { force: true });
    }
  }
  throw new Error(`anvil for chain ${opts.chainId} did not start after 5 attempts: ${String(lastError)}`);
}

/**
 * The 'exit' hook cannot run when this process is SIGKILLed (or killed by a signal it does not handle): a tiny
 * shell loop then ends the anvil by its PID. The loop ends by itself once either process is gone.
 */
function watchParent(anvilPid: number): void {
  if (process.platform === "win32") return;
  const loop = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${anvilPid} 2>/dev/null; do sleep 1; done; kill ${anvilPid} 2>/dev/null`;
  const watcher = spawn("sh", ["-c", loop], { stdio: "ignore", detached: true });
  watcher.unref();
}

async function waitForChainId(
  rpcUrl: string,
  chainId: number,
  hasExited: () => string | undefined,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const exit = hasExited();
    if (exit) throw new Error(`anvil exited (${exit}; port taken?)`);
    try {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      const body = (await res.json()) as { result?: string };
      if (body.result && Number(body.result) === chainId) return;
      if (body.result) throw new Error(`port answers chain ${Number(body.result)}, not ${chainId}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("port answers")) throw error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${rpcUrl} within ${timeoutMs / 1000} s`);
}
