/** Reads `name{chain="x"} value` samples of one gauge from Prometheus text exposition. */
export function gaugeByChain(metrics: string, name: string): Map<string, number> {
  const values = new Map<string, number>();
  const pattern = new RegExp(`^${name}\\{([^}]*)\\}\\s+(\\S+)`, "gm");
  for (const match of metrics.matchAll(pattern)) {
    const chain = match[1].match(/chain="([^"]*)"/)?.[1];
    if (chain !== undefined) values.set(chain, Number(match[2]));
  }
  return values;
}
