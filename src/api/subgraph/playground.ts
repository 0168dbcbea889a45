/** A small self-contained query page for browsers (no CDN: the service may run offline). */
export const PLAYGROUND_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>nameindex /subgraph</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; }
  header { padding: 8px 12px; background: #1e293b; color: #f8fafc; display: flex; gap: 12px; align-items: center; }
  main { flex: 1; display: grid; grid-template-columns: 1fr 1fr; gap: 8px; padding: 8px; min-height: 0; }
  section { display: flex; flex-direction: column; gap: 8px; min-height: 0; }
  textarea, pre { font: 13px ui-monospace, monospace; border: 1px solid #cbd5e1; border-radius: 4px; padding: 8px; margin: 0; }
  #query { flex: 3; } #variables { flex: 1; }
  pre { flex: 1; overflow: auto; background: #f8fafc; }
  button { padding: 4px 14px; font-weight: 600; }
</style>
</head>
<body>
<header><strong>nameindex · subgraph</strong><button id="run" title="Ctrl+Enter">Run</button><span id="status"></span></header>
<main>
  <section>
    <textarea id="query" spellcheck="false">{
  _meta { block { number timestamp hash } deployment hasIndexingErrors }
  domains(first: 10, orderBy: createdAt, orderDirection: desc) {
    id
    name
    owner { id }
    expiryDate
  }
}</textarea>
    <textarea id="variables" spellcheck="false" placeholder="variables (JSON)"></textarea>
  </section>
  <pre id="result"></pre>
</main>
<script>
  const $ = (id) => document.getElementById(id);
  async function run() {
    let variables = null;
    const text = $("variables").value.trim();
    if (text) {
      try { variables = JSON.parse(text); } catch (e) { $("result").textContent = "variables: " + e.message; return; }
    }
    $("status").textContent = "running…";
    const started = performance.now();
    try {
      const res = await fetch(location.pathname, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: $("query").value, variables }),
      });
      const body = await res.json();
      $("result").textContent = JSON.stringify(body, null, 2);
      $("status").textContent = res.status + " · " + Math.round(performance.now() - started) + " ms";
    } catch (e) {
      $("result").textContent = String(e);
      $("status").textContent = "failed";
    }
  }
  $("run").onclick = run;
  document.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run(); });
</script>
</body>
</html>
`;
