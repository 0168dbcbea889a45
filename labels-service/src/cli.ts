// Entry of `npm run labels` and the labels-service bin.
import { runCli } from "./cli/run-cli.js";

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`labels-service: ${(error as Error).message ?? error}`);
    process.exitCode = 1;
  },
);
