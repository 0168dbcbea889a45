// Ponder serves the default export of its root's src/api/index.ts; the API lives in the project's src/api.
export { default } from "../../../src/api";
