/** What a person can open once the indexer is ready. */
export function printEndpoints(indexerUrl: string, labelsUrl: string): void {
  const rows: [string, string][] = [
    ["Status page", `${indexerUrl}/`],
    ["Subgraph GraphQL (playground in a browser)", `${indexerUrl}/subgraph`],
    ["Public configuration", `${indexerUrl}/api/config`],
    ["Indexing status", `${indexerUrl}/api/indexing-status`],
    ["Events indexed (for events/s)", `${indexerUrl}/api/indexing-status/events`],
    ["Realtime check", `${indexerUrl}/amirealtime`],
    ["Registrar actions", `${indexerUrl}/api/registrar-actions`],
    ["Name tokens", `${indexerUrl}/api/name-tokens?name=<name>`],
    ["Resolve a name's records", `${indexerUrl}/api/resolve/records/<name>?addresses=60&texts=url`],
    ["Primary names of an address", `${indexerUrl}/api/resolve/primary-names/<address>`],
    ["Primary name on one chain", `${indexerUrl}/api/resolve/primary-name/<address>/<chainId>`],
    ["OpenAPI description", `${indexerUrl}/openapi.json`],
    ["Ponder readiness", `${indexerUrl}/ready`],
    ["Prometheus metrics", `${indexerUrl}/metrics`],
  ];
  if (labelsUrl) {
    rows.push(
      ["Label service health", `${labelsUrl}/health`],
      ["Heal a labelhash", `${labelsUrl}/v1/heal/<labelhash>`],
      ["Heal a batch (POST a JSON array)", `POST ${labelsUrl}/v1/heal`],
      ["Label count", `${labelsUrl}/v1/labels/count`],
      ["Label service config", `${labelsUrl}/v1/config`],
    );
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log("");
  for (const [name, url] of rows) console.log(`  ${name.padEnd(width)}  ${url}`);
  console.log("");
}
