#!/usr/bin/env node
// The CLI is TypeScript; tsx (a project dependency) compiles it on load so no build step is needed.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
