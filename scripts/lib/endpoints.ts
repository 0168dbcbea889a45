/** What a person can open once the indexer is ready. */
export function printEndpoints(indexerUrl: string, labelsUrl: string): void {
  const rows: [string, string][] = [
    ["Status page", `${indexerUrl}/`],
    ["Subgraph GraphQL (playground in a browser)", `${indexerUrl}/subgraph`],
    ["Public configuration", `${indexerUrl}/api/config`],
    ["Indexing status", `${indexerUrl}/api/indexing-status`],
    ["Realtime check", `${indexerUrl}/amirealtime`],
    ["Registrar actions", `${indexerUrl}/api/registrar-actions`],
    ["Name tokens", `${indexerUrl}/api/name-tokens?name=<name>`],
    ["Ponder readiness", `${indexerUrl}/ready`],
    ["Prometheus metrics", `${indexerUrl}/metrics`],
  ];
  if (labelsUrl) {
    rows.push(["Label service health", `${labelsUrl}/health`], ["Label service config", `${labelsUrl}/v1/config`]);
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log("");
  for (const [name, url] of rows) console.log(`  ${name.padEnd(width)}  ${url}`);
  console.log("");
}
