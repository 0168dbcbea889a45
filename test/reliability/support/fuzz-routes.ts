import { ens_normalize } from "@adraffy/ens-normalize";
import { peerCookbook, skipWithoutPeerOmnigraph } from "../../../harness/peer-omnigraph";
import { type Fuzz, type FuzzRequest, ODD_CONTENT_TYPES, oddBody, tryDecode } from "./fuzz-inputs";

/*
 * Request builders per route, from the seeded hostile values. A builder sets `expectStatus` only where the documented
 * rule makes the answer certain (a malformed hash is a 400); everything else just must not be a 5xx or a leak.
 */

/** Node's HTTP parser refuses a request head over 16 KiB before any route sees it (431, no body): a transport limit. */
export const NODE_MAX_HEADER_BYTES = 16 * 1024;

const UNKNOWN_PARAMS = ["foo", "x", "callback", "format", "debug", "__proto__", "constructor", "toString", "a[b]"];

/**
 * Whether the routes must accept a decoded name, by the normalization library itself (not our code): ENSIP-15
 * normalized, where a label may be an encoded labelhash `[64 lowercase hex]` (docs/api.md, "Names as input"). ENSIP-15
 * checks each label on its own, so an encoded label is checked as a plain one in its place.
 */
function isNormalized(name: string): boolean {
  const plain = name
    .split(".")
    .map((label) => (/^\[[0-9a-f]{64}\]$/.test(label) ? "a" : label))
    .join(".");
  try {
    return name !== "" && ens_normalize(plain) === plain;
  } catch {
    return false;
  }
}

const NUMBER_INVALID = new Set([
  "-1",
  "1.5",
  "1e309",
  "-1e309",
  "1e21",
  "9007199254740993",
  "NaN",
  "Infinity",
  "1_000",
  "1%00",
  "%D9%A3",
  "abc",
  "true",
  "[1]",
  "%7B%22a%22%3A1%7D",
]);
const NUMBER_VALID = new Set(["0", "1", "100", "101", ""]);

/** A number param's certainty: "invalid" for anything not a whole non-negative safe number, undefined when unsure. */
function numberVerdict(value: string, min: number, max: number): "valid" | "invalid" | undefined {
  if (NUMBER_INVALID.has(value) || /^\d{20,}$/.test(value) || value.startsWith("99999")) return "invalid";
  if (!NUMBER_VALID.has(value)) return undefined;
  if (value === "") return "valid";
  const n = Number(value);
  return n >= min && n <= max ? "valid" : "invalid";
}

/** Appends junk; a junk param that repeats a known one makes the outcome uncertain (which copy wins is unspecified). */
function withJunk(f: Fuzz, req: FuzzRequest, known: readonly string[]): FuzzRequest {
  const junk = f.junkParams(f.random() < 0.5 ? UNKNOWN_PARAMS : known);
  if (junk === "") return req;
  const sep = req.path.includes("?") ? "" : "?";
  const repeatsKnown = known.some((k) => junk.includes(`&${k}`));
  return {
    ...req,
    path: req.path + sep + junk,
    expectStatus: repeatsKnown ? undefined : req.expectStatus,
    what: `${req.what} +junk`,
  };
}

/**
 * The paging and time range the list routes share (registrar actions, name sales): each parameter half the time, an
 * odd number; whether the route must refuse them (`invalid`) or the oracle cannot tell (`unsure`).
 */
function pagingParams(f: Fuzz): { params: Record<string, string | undefined>; invalid: boolean; unsure: boolean } {
  const params: Record<string, string | undefined> = {};
  let invalid = false;
  let unsure = false;
  const num = (name: string, min: number, max: number) => {
    if (f.random() < 0.5) return;
    const v = f.oddNumber().value;
    params[name] = v;
    const verdict = numberVerdict(v, min, max);
    if (verdict === "invalid") invalid = true;
    if (verdict === undefined) unsure = true;
  };
  num("limit", 1, 100);
  num("page", 1, 1_000_000_000);
  num("beginTimestamp", 0, Number.MAX_SAFE_INTEGER);
  num("endTimestamp", 0, Number.MAX_SAFE_INTEGER);
  if (params.beginTimestamp && params.endTimestamp) unsure = true; // the order rule
  return { params, invalid, unsure };
}

function q(params: Record<string, string | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/** Indexer REST routes. `chainIds` are the indexed chains (others are a 400 on the resolution routes). */
export function restRequest(f: Fuzz, chainIds: readonly number[]): FuzzRequest {
  const builders: (() => FuzzRequest)[] = [
    () => {
      const route = f.pick(["/", "/openapi.json", "/api/config", "/api/indexing-status"]);
      return withJunk(f, { route, method: "GET", path: route, expectStatus: 200, what: route }, []);
    },
    () => {
      const v = f.oddNumber().value;
      const verdict = numberVerdict(v, 0, Number.MAX_SAFE_INTEGER);
      return withJunk(
        f,
        {
          route: "/amirealtime",
          method: "GET",
          path: `/amirealtime?maxWorstCaseDistance=${v}`,
          expectStatus: verdict === "invalid" ? 400 : undefined,
          what: v,
        },
        ["maxWorstCaseDistance"],
      );
    },
    () => {
      const paging = pagingParams(f);
      const params = paging.params;
      let { invalid, unsure } = paging;
      if (f.random() < 0.4) {
        const v = f.pick(["true", "false", "", "TRUE", "1", "yes", f.oddText()]);
        params.withReferral = v;
        if (!["true", "false", ""].includes(v)) invalid = true;
      }
      if (f.random() < 0.4) {
        const h = f.oddHex();
        params.decodedReferrer = h.value;
        if (!h.valid20) invalid = true; // the flags describe the decoded value (`%30x…` is `0x…`)
      }
      let path = "/api/registrar-actions";
      if (f.random() < 0.5) {
        const h = f.oddHex();
        path += `/${h.value}`;
        if (!h.valid32) invalid = true;
      }
      const req: FuzzRequest = {
        route: "/api/registrar-actions",
        method: "GET",
        path: path + q(params),
        expectStatus: invalid ? 400 : unsure ? undefined : 200,
        what: path + q(params),
      };
      return withJunk(f, req, ["limit", "page", "withReferral", "decodedReferrer", "beginTimestamp", "endTimestamp"]);
    },
    () => {
      const mode = f.int(4);
      const params: Record<string, string | undefined> = {};
      let expectStatus: number | undefined;
      const text = f.oddText();
      const hex = f.oddHex();
      if (mode === 0) {
        params.name = text;
        const decoded = tryDecode(text);
        if (decoded !== undefined && decoded !== "" && !isNormalized(decoded)) expectStatus = 400;
        if (text === "") expectStatus = 400; // neither given
      } else if (mode === 1) {
        params.domainId = hex.value;
        if (!hex.valid32) expectStatus = 400;
      } else if (mode === 2) {
        params.name = encodeURIComponent("alice.eth");
        params.domainId = f.hash();
        expectStatus = 400; // both given
      } else {
        expectStatus = 400; // neither given
      }
      return withJunk(
        f,
        {
          route: "/api/name-tokens",
          method: "GET",
          path: `/api/name-tokens${q(params)}`,
          expectStatus,
          what: JSON.stringify(params),
        },
        ["name", "domainId"],
      );
    },
    () => {
      // /api/name-sales: the registrar actions' paging and time range, at most one of name/domainId, buyer/seller.
      const paging = pagingParams(f);
      const params = paging.params;
      let { invalid, unsure } = paging;
      if (f.random() < 0.3) {
        params.name = f.oddText();
        const decoded = tryDecode(params.name);
        if (decoded === undefined) unsure = true;
        else if (decoded !== "" && !isNormalized(decoded)) invalid = true;
      }
      if (f.random() < 0.3) {
        const h = f.oddHex();
        params.domainId = h.value;
        if (!h.valid32) invalid = true;
        if (params.name !== undefined) unsure = true; // both given is a 400 only when both are non-empty
      }
      for (const party of ["buyer", "seller"]) {
        if (f.random() < 0.3) {
          const h = f.oddHex();
          params[party] = h.value;
          if (!h.valid20) invalid = true;
        }
      }
      const path = `/api/name-sales${q(params)}`;
      const req: FuzzRequest = {
        route: "/api/name-sales",
        method: "GET",
        path,
        expectStatus: invalid ? 400 : unsure ? undefined : 200,
        what: path,
      };
      return withJunk(f, req, [
        "limit",
        "page",
        "name",
        "domainId",
        "buyer",
        "seller",
        "beginTimestamp",
        "endTimestamp",
      ]);
    },
    () => {
      const name = f.oddText();
      const decoded = tryDecode(name);
      let invalid = decoded !== undefined && !isNormalized(decoded);
      const params: Record<string, string | undefined> = {};
      if (f.random() < 0.5) {
        const coins = Array.from({ length: 1 + f.int(3) }, () =>
          f.pick([
            "60",
            "0",
            "2147492101",
            "-1",
            "1.5",
            "abc",
            "1" + "0".repeat(80),
            "115792089237316195423570985008687907853269984665640564039457584007913129639936",
          ]),
        );
        params.addresses = coins.join(",");
        if (coins.some((c) => !/^\d{1,78}$/.test(c) || BigInt(c) >= 2n ** 256n)) invalid = true;
      }
      if (f.random() < 0.5) {
        const keys = Array.from({ length: 1 + f.int(3) }, () =>
          f.pick(["avatar", "url", "x".repeat(300), "%00", encodeURIComponent("😀")]),
        );
        params.texts = keys.join(",");
        if (keys.some((k) => k.length > 256)) invalid = true;
      }
      if (f.random() < 0.3) {
        params.accelerate = f.pick(["true", "false", "maybe", "1"]);
        if (params.accelerate === "maybe" || params.accelerate === "1") invalid = true;
      }
      if (f.random() < 0.3) {
        params.name = f.pick(["true", "false", "yes"]);
        if (params.name === "yes") invalid = true;
      }
      const path = `/api/resolve/records/${name}${q(params)}`;
      // An empty name segment is another route (a 404); an undecodable one is kept raw by the server.
      const expectStatus = name === "" ? undefined : invalid ? 400 : undefined;
      return withJunk(f, { route: "/api/resolve/records", method: "GET", path, expectStatus, what: path }, [
        "addresses",
        "texts",
        "name",
        "accelerate",
      ]);
    },
    () => {
      const addr = f.oddHex();
      const chain = f.pick([
        ...chainIds.map(String),
        ...["1", "0", "-1", "8453", "1e3", "abc", "99999999999999999999", "31337.0"],
      ]);
      const invalid = !addr.valid20 || !chainIds.map(String).includes(chain);
      const expectStatus = invalid ? 400 : undefined;
      const path = `/api/resolve/primary-name/${addr.value}/${chain}`;
      return withJunk(f, { route: "/api/resolve/primary-name", method: "GET", path, expectStatus, what: path }, [
        "accelerate",
      ]);
    },
    () => {
      const addr = f.oddHex();
      const ids = Array.from({ length: f.int(4) }, () => f.pick([...chainIds.map(String), "1", "-5", "abc", ""]));
      const invalid = !addr.valid20 || ids.some((id) => id !== "" && !chainIds.map(String).includes(id));
      const path = `/api/resolve/primary-names/${addr.value}${ids.length ? `?chainIds=${ids.join(",")}` : ""}`;
      return withJunk(
        f,
        {
          route: "/api/resolve/primary-names",
          method: "GET",
          path,
          expectStatus: invalid ? 400 : undefined,
          what: path,
        },
        ["chainIds", "accelerate"],
      );
    },
    () => {
      const addr = f.oddHex();
      const coinType = f.pick(["", "60", "0", "2147492101", "-1", "abc", "1e3", String(2n ** 256n)]);
      const limit = f.pick(["", "1", "100", "0", "101", "-3", "2.5", "abc"]);
      const cursor = f.pick(["", `1-0x${"ab".repeat(32)}-60`, "zzz", "1-0x12-60", "0x"]);
      const invalid =
        !addr.valid20 ||
        !["", "60", "0", "2147492101"].includes(coinType) ||
        !["", "1", "100"].includes(limit) ||
        !["", `1-0x${"ab".repeat(32)}-60`].includes(cursor);
      const q = new URLSearchParams({ coinType, limit, cursor });
      const path = `/api/resolve/name-references/${addr.value}?${q}`;
      return withJunk(
        f,
        {
          route: "/api/resolve/name-references",
          method: "GET",
          path,
          expectStatus: invalid ? 400 : undefined,
          what: path,
        },
        ["coinType", "limit", "cursor"],
      );
    },
    () => {
      // /subgraph as a transport: odd bodies, content types and parameters (graphql-abuse.alone.test.ts covers the
      // queries).
      if (f.random() < 0.4) {
        const params = q({
          query: f.pick([undefined, "", "%7B", encodeURIComponent("{ domains(first: 1) { id } }"), f.oddText()]),
          variables: f.pick([undefined, "", "%7B", "null", "[1]", f.oddText()]),
          operationName: f.pick([undefined, "", f.oddText()]),
        });
        return withJunk(
          f,
          {
            route: "/subgraph",
            method: "GET",
            path: `/subgraph${params}`,
            headers: { accept: "application/json" },
            what: `/subgraph${params}`,
          },
          ["query", "variables", "operationName"],
        );
      }
      const body =
        f.random() < 0.5
          ? oddBody(f, 300 * 1024)
          : JSON.stringify({
              query: f.pick([1, null, [], "{ domains { id } }", "{"]),
              variables: f.pick([1, "x", [], null, "{}", {}]),
              operationName: f.pick([1, null, "x", undefined]),
            });
      const expectStatus = Buffer.byteLength(body) > 256 * 1024 ? 413 : undefined;
      return {
        route: "/subgraph",
        method: "POST",
        path: f.pick(["/subgraph", "/subgraph/"]),
        body,
        headers: { "content-type": f.pick(ODD_CONTENT_TYPES) },
        expectStatus,
        what: `POST /subgraph ${body.length} bytes: ${body.slice(0, 80)}`,
      };
    },
    () => {
      // /api/omnigraph as a transport, the same odd bodies, content types and parameters as /subgraph's.
      if (f.random() < 0.4) {
        const params = q({
          query: f.pick([undefined, "", "%7B", encodeURIComponent("{ root { id } }"), f.oddText()]),
          variables: f.pick([undefined, "", "%7B", "null", "[1]", f.oddText()]),
          operationName: f.pick([undefined, "", f.oddText()]),
        });
        const expectStatus = params === "" ? 400 : undefined; // a GET without a query (and not a browser's)
        return withJunk(
          f,
          {
            route: "/api/omnigraph",
            method: "GET",
            path: `/api/omnigraph${params}`,
            headers: { accept: "application/json" },
            expectStatus,
            what: `/api/omnigraph${params}`,
          },
          ["query", "variables", "operationName"],
        );
      }
      const body =
        f.random() < 0.5
          ? oddBody(f, 300 * 1024)
          : JSON.stringify({
              query: f.pick([1, null, [], "{ root { id } }", "{"]),
              variables: f.pick([1, "x", [], null, "{}", {}]),
              operationName: f.pick([1, null, "x", undefined]),
            });
      const expectStatus = Buffer.byteLength(body) > 256 * 1024 ? 413 : undefined;
      return {
        route: "/api/omnigraph",
        method: "POST",
        path: "/api/omnigraph",
        body,
        headers: { "content-type": f.pick(ODD_CONTENT_TYPES) },
        expectStatus,
        what: `POST /api/omnigraph ${body.length} bytes: ${body.slice(0, 80)}`,
      };
    },
    ...(withCookbook() ? [() => omnigraphQuery(f)] : []),
    () => {
      // Methods /api/omnigraph does not take: 405 (with Allow), whatever the body.
      const method = f.pick(["PUT", "DELETE", "PATCH"]);
      return {
        route: "/api/omnigraph (other methods)",
        method,
        path: "/api/omnigraph",
        body: oddBody(f, 64 * 1024),
        headers: { "content-type": f.pick(ODD_CONTENT_TYPES) },
        expectStatus: 405,
        what: `${method} /api/omnigraph`,
      };
    },
    () => {
      // Traversal and unknown paths: never a file, never a 5xx.
      const path = f.pick([
        "/../../../../etc/passwd",
        "/api/%2e%2e/%2e%2e/etc/passwd",
        "/api/..%2f..%2fpackage.json",
        "/%2e%2e%2f%2e%2e%2f.env",
        "/api/config/..%2f..%2f..%2f.env",
        "/api/resolve/records/..%2F..%2F..%2Fetc%2Fpasswd",
        "//api//config",
        "/api/registrar-actions/%00",
        "/api/name-tokens/../../.env",
        "/api/" + "a/".repeat(500),
        "/api/nope",
        "/src/api/index.ts",
        "/node_modules/ponder/package.json",
        "/.ponder/",
        "/api/resolve",
        "/api/resolve/records/",
        "/api/resolve/primary-name/" + f.address(),
        "/subgraph/../../etc/passwd",
        "/subgraph/x",
        "/subgraph/%2e%2e%2f",
      ]);
      return { route: "(traversal/unknown)", method: "GET", path, what: path };
    },
    () => {
      // Methods the routes do not take, with or without a body.
      const path = f.pick([
        "/api/config",
        "/api/registrar-actions",
        "/api/name-sales",
        "/api/name-tokens?name=alice.eth",
        "/amirealtime",
        "/api/indexing-status",
        "/",
      ]);
      const method = f.pick(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]);
      const body = method === "HEAD" || method === "OPTIONS" ? undefined : oddBody(f, 64 * 1024);
      return {
        route: "(other methods)",
        method,
        path,
        body,
        headers: { "content-type": f.pick(ODD_CONTENT_TYPES) },
        what: `${method} ${path}`,
      };
    },
    () => {
      // A long query string: within Node's header limit it reaches the route; beyond, Node itself says 431.
      const route = f.pick([
        "/api/registrar-actions",
        "/api/name-sales",
        "/api/name-tokens",
        "/api/resolve/records/alice.eth",
        "/amirealtime",
        "/api/config",
      ]);
      const bytes = f.pick([4 * 1024, 12 * 1024, 100 * 1024]);
      const path = `${route}?${f.longQuery(bytes, ["limit", "page", "name", "domainId", "addresses", "texts", "maxWorstCaseDistance", "foo"])}`;
      return { route: "(long query)", method: "GET", path, what: `${route} with a ${bytes}-byte query` };
    },
  ];
  return f.pick(builders)();
}

/** Label service routes. */
export function labelsRequest(f: Fuzz): FuzzRequest {
  const builders: (() => FuzzRequest)[] = [
    () => {
      const h = f.oddHex();
      let path = `/v1/heal/${h.value}`;
      let expectStatus = h.valid32 ? undefined : 400;
      if (h.value.startsWith("%30x")) expectStatus = undefined;
      if (f.random() < 0.4) {
        const id = f.pick(["demo", "other", "", "DEMO", "a".repeat(51), f.oddText()]);
        const version = f.pick([undefined, ...["0", "1", "-1", "1.5", "1e309", "abc", "99999999999999999999", ""]]);
        path += q({ label_set_id: id, label_set_version: version });
        // The demo set is "demo" version 0: any other id (empty included), a higher or malformed version, is a 400.
        if (id !== "demo" || (version !== undefined && version !== "0")) expectStatus = 400;
      }
      return withJunk(f, { route: "GET /v1/heal/:labelhash", method: "GET", path, expectStatus, what: path }, [
        "label_set_id",
        "label_set_version",
      ]);
    },
    () => {
      const body = oddBody(f, 300 * 1024);
      const contentType = f.pick(ODD_CONTENT_TYPES);
      let expectStatus: number | undefined;
      if (Buffer.byteLength(body) > 256 * 1024) expectStatus = 413;
      else {
        let parsed: unknown;
        try {
          // The server reads the body as UTF-8 text, which drops a byte order mark.
          parsed = JSON.parse(body.replace(/^\uFEFF/, ""));
        } catch {
          expectStatus = 400;
        }
        if (expectStatus === undefined) {
          const ok =
            Array.isArray(parsed) &&
            parsed.length <= 1000 &&
            parsed.every((x) => typeof x === "string" && /^0x[0-9a-fA-F]{64}$/.test(x));
          expectStatus = ok ? 200 : 400;
        }
      }
      return {
        route: "POST /v1/heal",
        method: "POST",
        path: "/v1/heal",
        body,
        headers: contentType ? { "content-type": contentType } : {},
        expectStatus,
        what: `POST ${body.length} bytes as ${contentType || "(no type)"}: ${body.slice(0, 60)}`,
      };
    },
    () => {
      const route = f.pick(["/health", "/v1/labels/count", "/v1/config"]);
      return withJunk(f, { route, method: "GET", path: route, expectStatus: 200, what: route }, []);
    },
    () => {
      const path = f.pick([
        "/v1/heal",
        "/v1/heal/",
        "/v1/heal/" + "0x".repeat(5000),
        "/v1/heal//" + f.hash(),
        "/v1/../health",
        "/v1/%2e%2e/health",
        "/../../etc/passwd",
        "/v1/heal/..%2F..%2Fetc%2Fpasswd",
        "/v1/heal/%ED%A0%80",
        "/v1/heal/%",
        "/v2/heal/" + f.hash(),
        "/v1",
        "/v1/labels",
        "/" + "a".repeat(8000),
      ]);
      return { route: "(traversal/unknown)", method: "GET", path, what: path };
    },
    () => {
      const method = f.pick(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "POST"]);
      const path = f.pick(["/health", "/v1/config", "/v1/labels/count", `/v1/heal/${f.hash()}`]);
      const body = method === "HEAD" || method === "OPTIONS" ? undefined : oddBody(f, 64 * 1024);
      return { route: "(other methods)", method, path, body, what: `${method} ${path}` };
    },
    () => {
      const bytes = f.pick([4 * 1024, 12 * 1024, 100 * 1024]);
      const path = `/v1/heal/${f.hash()}?${f.longQuery(bytes, ["label_set_id", "label_set_version", "foo"])}`;
      return { route: "(long query)", method: "GET", path, what: `heal with a ${bytes}-byte query` };
    },
  ];
  return f.pick(builders)();
}

/** Bytes of the request line and headers, to tell Node's own 431 from a route's answer. */
export function headBytes(req: FuzzRequest): number {
  return (
    req.method.length +
    req.path.length +
    64 +
    Object.entries(req.headers ?? {}).reduce((n, [k, v]) => n + k.length + v.length + 4, 0)
  );
}

/**
 * A GraphQL fuzz of /api/omnigraph: one of the peer's cookbook queries (../shared/peer/omnigraph/; left out, saying
 * so, when that folder is absent) with each variable replaced, half the time, by a hostile value (odd text, odd hex,
 * a huge or negative number, a wrong shape). Every answer must be a 200 (data or GraphQL errors), never a 5xx; a 400
 * only for what is not GraphQL.
 */
function omnigraphQuery(f: Fuzz): FuzzRequest {
  const example = f.pick(peerCookbook());
  const odd = (): unknown =>
    f.pick<() => unknown>([
      () => f.oddText(),
      () => f.oddHex().value,
      () => f.oddNumber().value,
      () => Number(f.pick(["-1", "1e308", "9007199254740993", "1001", "0"])),
      () => ({ name: f.oddText() }),
      () => ({ address: f.oddHex().value }),
      () => ({ starts_with: f.oddText() }),
      () => [f.oddText(), f.oddHex().value],
      () => null,
    ])();
  const variables = Object.fromEntries(
    Object.entries(example.variables).map(([k, v]) => [k, f.random() < 0.5 ? odd() : v]),
  );
  const extra =
    f.random() < 0.3 ? { first: f.pick([0, 1, 1000, 1001, -5]), after: f.pick(["", "x", f.oddText()]) } : {};
  const body = JSON.stringify({ query: example.query, variables: { ...variables, ...extra } });
  return {
    route: "/api/omnigraph (queries)",
    method: "POST",
    path: "/api/omnigraph",
    body,
    headers: { "content-type": "application/json" },
    expectStatus: 200,
    what: `omnigraph ${example.id} ${body.slice(0, 120)}`,
  };
}

let cookbookPresent: boolean | undefined;
/** Whether the cookbook's queries are fuzzed (said once when they are not). */
function withCookbook(): boolean {
  return (cookbookPresent ??= !skipWithoutPeerOmnigraph("the /api/omnigraph fuzz's cookbook queries"));
}
