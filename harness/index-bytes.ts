import pg from "pg";
import { schemaBytes } from "../snapshot/compact";

/** The on-disk bytes of an index's schema (tables, their indexes and TOAST) in the database at `url`. */
export async function indexBytes(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await schemaBytes(client, schema);
  } finally {
    await client.end();
  }
}
