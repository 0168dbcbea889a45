// Ponder's indexing entry: the only file under Ponder's src/ besides the API. What it registers is listed in one
// place, src/indexing/register.ts.
import { registerIndexing } from "../../src/indexing/register";

registerIndexing();
