/**
 * The status page for people: one self-contained HTML document (no build step) that polls the JSON endpoints.
 * Kept as a string so Ponder's API bundle serves it without file-system lookups.
 */
export const STATUS_PAGE_HTML = /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nameindex — indexing status</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; --ok: #2e9d5b; --warn: #c98a00; --bad: #c43d3d; --bar: #3b6fd4; }
  body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  .muted { opacity: .7; }
  .summary { display: flex; gap: 2rem; flex-wrap: wrap; margin: 1rem 0 1.5rem; }
  .summary div b { display: block; font-size: 1.2rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #8884; vertical-align: middle; }
  .bar { background: #8883; border-radius: 4px; height: .8rem; min-width: 10rem; position: relative; }
  .bar > span { background: var(--bar); border-radius: 4px; display: block; height: 100%; }
  .pill { border-radius: 1rem; padding: .05rem .6rem; font-size: .85rem; white-space: nowrap; }
  .chain-following, .chain-completed, .omnichain-following, .omnichain-completed { background: #2e9d5b33; }
  .chain-backfill, .omnichain-backfill { background: #3b6fd433; }
  .chain-queued, .omnichain-unstarted { background: #8884; }
  #error { color: var(--bad); min-height: 1.2rem; }
  ul.links { columns: 2; padding-left: 1.2rem; }
</style>
</head>
<body>
<h1>nameindex</h1>
<div class="muted" id="namespace">loading…</div>
<div id="error"></div>
<div class="summary">
  <div>Omnichain status<b id="omnichain-status">…</b></div>
  <div>Worst-case distance<b id="distance">…</b></div>
  <div>Events indexed/s<b id="rate">…</b></div>
  <div>Updated<b id="updated">…</b></div>
</div>
<table>
  <thead><tr><th>Chain</th><th>Status</th><th>Backfill</th><th>Latest indexed block</th><th>Age</th></tr></thead>
  <tbody id="chains"></tbody>
</table>
<h2>Endpoints</h2>
<ul class="links" id="links">
  <li><a href="/subgraph">/subgraph</a> — GraphQL playground</li>
  <li><a href="/api/config">/api/config</a></li>
  <li><a href="/api/indexing-status">/api/indexing-status</a></li>
  <li><a href="/amirealtime">/amirealtime</a></li>
  <li><a href="/api/registrar-actions">/api/registrar-actions</a></li>
  <li><a href="/api/name-tokens?name=">/api/name-tokens?name=…</a></li>
  <li><a href="/metrics">/metrics</a></li>
</ul>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let previousEvents;
const fmtAge = (seconds) => seconds < 120 ? seconds + " s" : seconds < 7200 ? Math.round(seconds / 60) + " min" : Math.round(seconds / 3600) + " h";

function progress(chain) {
  const start = chain.config.startBlock.number;
  if (chain.chainStatus === "chain-queued") return 0;
  if (chain.chainStatus !== "chain-backfill") return 100;
  const end = chain.backfillEndBlock.number;
  if (end <= start) return 100;
  return Math.max(0, Math.min(100, ((chain.latestIndexedBlock.number - start) / (end - start)) * 100));
}

function cell(text, className) {
  const td = document.createElement("td");
  if (className) { const s = document.createElement("span"); s.className = className; s.textContent = text; td.append(s); }
  else td.textContent = text;
  return td;
}

async function refreshStatus() {
  const res = await fetch("/api/indexing-status", { cache: "no-store" });
  if (res.status === 503) { $("omnichain-status").textContent = "not started"; return; }
  if (!res.ok) throw new Error("/api/indexing-status answered " + res.status);
  const body = await res.json();
  const projection = body.realtimeProjection;
  const snapshot = projection.snapshot.omnichainSnapshot;
  $("omnichain-status").innerHTML = "";
  const pill = document.createElement("span");
  pill.className = "pill " + snapshot.omnichainStatus;
  pill.textContent = snapshot.omnichainStatus.replace("omnichain-", "");
  $("omnichain-status").append(pill);
  $("distance").textContent = fmtAge(projection.worstCaseDistance);
  const rows = [];
  for (const [chainId, chain] of Object.entries(snapshot.chains)) {
    const tr = document.createElement("tr");
    tr.dataset.chainId = chainId;
    tr.append(cell(chainId));
    tr.append(cell(chain.chainStatus.replace("chain-", ""), "pill " + chain.chainStatus));
    const pct = progress(chain);
    const td = document.createElement("td");
    td.innerHTML = '<div class="bar" role="progressbar"><span></span></div><small class="pct"></small>';
    td.querySelector(".bar").setAttribute("aria-valuenow", pct.toFixed(1));
    td.querySelector(".bar > span").style.width = pct + "%";
    const latest = chain.latestIndexedBlock;
    const target = chain.chainStatus === "chain-backfill" ? chain.backfillEndBlock.number : latest ? latest.number : chain.config.startBlock.number;
    td.querySelector(".pct").textContent = pct.toFixed(pct === 100 ? 0 : 1) + " % (" + (latest ? latest.number - chain.config.startBlock.number : 0) + " / " + (target - chain.config.startBlock.number) + " blocks)";
    tr.append(td);
    tr.append(cell(latest ? String(latest.number) : "—"));
    tr.append(cell(latest ? fmtAge(Math.max(0, projection.projectedAt - latest.timestamp)) : "—"));
    rows.push(tr);
  }
  $("chains").replaceChildren(...rows);
}

async function refreshRate() {
  // A few dozen bytes (src/api/indexing-status/completed-events.ts), not the whole /metrics.
  const res = await fetch("/api/indexing-status/events", { cache: "no-store" });
  if (!res.ok) return;
  const { completedEvents: total, measuredAt: now } = await res.json();
  if (previousEvents) $("rate").textContent = Math.max(0, Math.round((total - previousEvents.total) / ((now - previousEvents.at) / 1000))).toLocaleString();
  previousEvents = { total, at: now };
}

async function loadConfig() {
  const res = await fetch("/api/config");
  if (!res.ok) return;
  const config = await res.json();
  $("namespace").textContent = "namespace " + config.namespace + " · plugins " + config.plugins.join(", ") + (config.isSubgraphCompatible ? " · subgraph-compatible" : "");
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = config.labelsServiceUrl + "/v1/config";
  a.textContent = "label service";
  li.append(a, " — " + config.labelSet.labelSetId + " v" + config.labelSet.labelSetVersion);
  $("links").append(li);
}

async function tick() {
  try {
    await Promise.all([refreshStatus(), refreshRate()]);
    $("error").textContent = "";
  } catch (error) {
    $("error").textContent = "Could not refresh: " + error.message;
  }
  $("updated").textContent = new Date().toLocaleTimeString();
}

loadConfig().catch(() => {});
tick();
setInterval(tick, 2000);
</script>
</body>
</html>
`;
