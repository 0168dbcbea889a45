// Ponder's one indexing entry. Ponder executes every file under src/ outside src/api/ (and hashes each into its build
// id), but this is the only one that registers anything: every other module only defines what registerIndexing() uses
// (test/indexing/registration-entry.test.ts checks it). What it registers is listed in one place,
// src/indexing/register.ts.
import { registerIndexing } from "./indexing/register";

registerIndexing();
