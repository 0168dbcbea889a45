import { fetchEnsArtifacts } from "../../devnet/src/artifacts";
import { compileContracts } from "../../devnet/src/solc";

/*
 * vitest's globalSetup (vitest.config.ts): compiles the devnet's contracts into .cache/ before any test file runs, and
 * fetches the real ENS contracts' builds there.
 * solc-js compiles synchronously; the build takes 20-30 s on a clean clone. Run inside a test worker, that
 * blocks the worker's event loop past the 60 s its RPC to vitest waits for an answer, and vitest then fails the whole
 * run with `[vitest-worker]: Timeout calling "onTaskUpdate"` although every test passed. Here, in the main process
 * before any worker starts, nothing waits on it; the devnets the tests start read the cache.
 */
export default function setup(): void {
  // Which Node runs the suite (npm puts the project's pinned Node first on PATH: README, "Two commands").
  console.log(`[globalSetup] node ${process.version}`);
  const started = Date.now();
  compileContracts();
  // The real ENS contracts' builds (npm pack into .cache/), once here rather than by every worker's first devnet.
  fetchEnsArtifacts();
  const seconds = (Date.now() - started) / 1000;
  if (seconds > 1) console.log(`[globalSetup] devnet contracts compiled and fetched in ${seconds.toFixed(0)} s`);
}
