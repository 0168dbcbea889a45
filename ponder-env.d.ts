/// <reference types="ponder/virtual" />

declare module "ponder:internal" {
  const config: typeof import("./ponder.config.ts");
  const schema: typeof import("./ponder.schema.ts");
}

// This file enables type checking and editor autocomplete for this Ponder project.
// That's it! Don't modify it unless you know what you're doing.
