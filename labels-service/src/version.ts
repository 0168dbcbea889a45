import { readFileSync } from "node:fs";

/** The software version /v1/config reports: the project's package version. */
export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
