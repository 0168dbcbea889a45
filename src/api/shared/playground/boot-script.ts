/*
 * The playground's own browser code, run after React, ReactDOM and GraphiQL's bundles have set their globals: GraphiQL
 * with a fetcher that POSTs to the page's own path, storage of its own per endpoint, and an Examples panel. Plain
 * JavaScript with React.createElement (no JSX): nothing here is built.
 */
export const PLAYGROUND_BOOT_SCRIPT = /* JavaScript */ `
(() => {
  const spec = JSON.parse(document.getElementById("playground-spec").textContent);
  const h = React.createElement;

  // The endpoint the page came from, whatever prefix a proxy put in front of it.
  const fetcher = async (params, options) => {
    const res = await fetch(location.pathname, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options && options.headers) },
      body: JSON.stringify(params),
    });
    return res.json();
  };

  // GraphiQL keeps its tabs in localStorage, and both endpoints share an origin: each gets its own keys, or a
  // /subgraph query would come back in the Omnigraph's editor.
  const prefix = "nameindex " + spec.path + ":";
  const own = () => Object.keys(localStorage).filter((key) => key.startsWith(prefix));
  const storage = {
    getItem: (key) => localStorage.getItem(prefix + key),
    setItem: (key, value) => localStorage.setItem(prefix + key, value),
    removeItem: (key) => localStorage.removeItem(prefix + key),
    clear: () => own().forEach((key) => localStorage.removeItem(key)),
    get length() { return own().length; },
  };

  const operationName = (query) => {
    const operation = GraphiQL.GraphQL.parse(query).definitions.find((d) => d.kind === "OperationDefinition");
    return (operation && operation.name && operation.name.value) || null;
  };

  const variablesText = (example) => (example.variables ? JSON.stringify(example.variables, null, 2) : "");

  function ExamplesPanel() {
    const editors = GraphiQL.React.useEditorContext({ nonNull: true });
    const pick = (example) => {
      if (editors.queryEditor) editors.queryEditor.setValue(example.query);
      if (editors.variableEditor) editors.variableEditor.setValue(variablesText(example));
      // GraphiQL reads the operation's name from the editor only after a pause in typing: a run right after the
      // pick would still send the previous example's name, which this query does not have.
      editors.setOperationName(operationName(example.query));
    };
    return h("section", { className: "playground-examples", "aria-label": "Examples" },
      h("div", { className: "graphiql-doc-explorer-title" }, "Examples"),
      h("p", null, "Pick one to put it in the editor, then run it."),
      spec.examples.map((example, i) =>
        h("button", { key: i, type: "button", className: "playground-example", "data-example": example.title, onClick: () => pick(example) },
          h("strong", null, example.title),
          h("span", null, example.description))));
  }

  const ExamplesIcon = () =>
    h("svg", { viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: 1.5, "aria-hidden": "true" },
      h("path", { d: "M5 5h14M5 10h14M5 15h9M5 20h6" }));

  const first = spec.examples[0];
  ReactDOM.createRoot(document.getElementById("graphiql")).render(
    h(GraphiQL, {
      fetcher,
      storage,
      plugins: [{ title: "Examples", icon: ExamplesIcon, content: ExamplesPanel }],
      // The first example takes no variables (checked by the endpoints' tests): the editor opens ready to run.
      defaultQuery: first ? "# " + first.title + " (more in the Examples panel)\\n" + first.query : "",
      shouldPersistHeaders: false,
    }, h(GraphiQL.Logo, null, spec.title)));
})();
`;
