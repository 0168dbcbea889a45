// better-sqlite3 under garbage collection outside any JavaScript context: Node 24.19+ headers compile a cleanup hook
// into every native object whose removal aborts the process when V8 collects a statement there
// (nodejs/node#65446: "Assertion failed: (env) != nullptr"). HTTP requests that prepare statements, then allocate
// after an await, reproduced it in 3 of 3 runs with such a build; with 24.18.1's headers, 0 of 2 on the same Node.
// Run from a checkout whose node_modules were built for the Node running this: `node .ci/native-gc-check.cjs`.
const http = require("node:http");
const Database = require("better-sqlite3");

const db = new Database(":memory:");
db.exec("create table t (x)");
const server = http.createServer(async (_req, res) => {
  for (let i = 0; i < 200; i++) db.prepare("select x from t where x = ?").get(i);
  await null;
  const garbage = [];
  for (let i = 0; i < 2000; i++) garbage.push({ i, text: "x".repeat(50) });
  res.end(String(garbage.length));
});
server.listen(0, "127.0.0.1", async () => {
  const { port } = server.address();
  for (let round = 0; round < 1500; round++) {
    await Promise.all(Array.from({ length: 8 }, () => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())));
  }
  server.close();
  console.log(`[native-gc-check] 12,000 requests preparing statements, no abort, on node ${process.version}`);
});
