import pg from "pg";

/**
 * Ponder's sync store (`ponder_sync`) is keyed by chain id and block, and a new devnet reuses the chain ids and
 * contract addresses of the last one: its rows must go before indexing the new chains, or old logs would mix in.
 */
export async function forgetDevnetSyncData(connectionString: string, chainIds: number[]): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = 'ponder_sync' and column_name = 'chain_id'`,
    );
    for (const { table_name } of rows) {
      await client.query(`delete from ponder_sync."${table_name.replaceAll('"', '""')}" where chain_id = any($1)`, [
        chainIds,
      ]);
    }
  } finally {
    await client.end();
  }
}
