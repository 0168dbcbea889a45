import {
  buildSchema,
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  parse,
  validate,
} from "graphql";
import { type Address, type Hex, keccak256, labelhash, stringToBytes } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  peerCookbook,
  peerCookbookResponses,
  peerSchemaSdl,
  skipWithoutPeerOmnigraph,
} from "../../harness/peer-omnigraph";
import type { Rows } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions, omnigraphSchema } from "../../src/api/omnigraph";
import { FakeStore } from "../lib/fake-store";
import { seededOmnigraph } from "./seeded-omnigraph";

// The indexer's ENSv2 logic imports Ponder's virtual schema module; here it is the schema file itself.
vi.mock("ponder:schema", () => import("../../ponder.schema"));

/*
 * Our Omnigraph schema against the peer's published SDL, read from ../shared/peer/omnigraph/ (test/support/
 * peer-omnigraph.ts; skipped, saying so, when that folder is absent): every type, field, argument (with its
 * type and default), enum value, input field and interface of theirs is ours too, so a query written for their
 * endpoint validates against ours; and every cookbook query validates unchanged. Then the ids: ENSv2 entities
 * indexed by our handlers from the facts of the peer's recorded answers (responses.json) have the peer's ids, text
 * for text, and the peer's ids find them.
 */

function signature(type: GraphQLNamedType): string[] {
  if (isObjectType(type) || isInterfaceType(type)) {
    const fields = Object.values(type.getFields()).map(
      (f) =>
        `${f.name}(${f.args.map((a) => `${a.name}: ${String(a.type)}${a.defaultValue !== undefined ? ` = ${JSON.stringify(a.defaultValue)}` : ""}`).join(", ")}): ${String(f.type)}`,
    );
    return [...fields, ...type.getInterfaces().map((i) => `implements ${i.name}`)];
  }
  if (isInputObjectType(type)) {
    return [
      ...Object.values(type.getFields()).map(
        (f) =>
          `${f.name}: ${String(f.type)}${f.defaultValue !== undefined ? ` = ${JSON.stringify(f.defaultValue)}` : ""}`,
      ),
      `oneOf: ${type.isOneOf}`,
    ];
  }
  if (isEnumType(type)) return type.getValues().map((v) => v.name);
  if (isUnionType(type)) return type.getTypes().map((t) => t.name);
  return [type.constructor.name];
}

describe.skipIf(skipWithoutPeerOmnigraph("the Omnigraph SDL compatibility tests"))(
  "/api/omnigraph schema compatibility with the peer's SDL",
  () => {
    const ours = omnigraphSchema();

    it("has every type of the peer's schema, of the same kind, with the same fields, arguments and values", () => {
      // Read in the test, not the describe's body: a skipped describe's body still runs, to collect its tests.
      const peer = buildSchema(peerSchemaSdl());
      const problems: string[] = [];
      for (const [name, theirs] of Object.entries(peer.getTypeMap())) {
        if (name.startsWith("__")) continue;
        const mine = ours.getType(name);
        if (!mine) {
          problems.push(`missing type ${name}`);
          continue;
        }
        const want = signature(theirs);
        const have = new Set(signature(mine));
        for (const line of want) if (!have.has(line)) problems.push(`${name}: missing or different: ${line}`);
      }
      expect(problems).toEqual([]);
      // Not a schema that passes by being empty: the peer's schema is large.
      expect(Object.keys(peer.getTypeMap()).length).toBeGreaterThan(150);
    });

    it("validates every query of the peer's cookbook unchanged", () => {
      const cookbook = peerCookbook();
      expect(cookbook.length).toBeGreaterThan(15);
      for (const example of cookbook) {
        const errors = validate(ours, parse(example.query));
        expect(
          errors.map((e) => e.message),
          example.id,
        ).toEqual([]);
      }
    });
  },
);

/** The peer's recorded answer to one cookbook query, as `data`. */
function peerAnswer(id: string): any {
  const answer = peerCookbookResponses()[id];
  if (!answer?.data) throw new Error(`responses.json has no data for ${id}`);
  return answer.data;
}

describe.skipIf(skipWithoutPeerOmnigraph("the Omnigraph id round trip with the peer's answers"))(
  "/api/omnigraph ENSv2 ids: the peer's recorded ids, round trip",
  () => {
    // Read in beforeAll, not the describe's body: a skipped describe's body still runs, to collect its tests.
    let t: TestDatabase;
    let options: OmnigraphOptions;
    let internalErrors: unknown[] = [];
    /** The peer's ENSv2 `eth` (eth-by-version) and the contract whose permissions it listed (permissions-by-contract). */
    let ethId: string;
    let root: Address;
    let contract: { chainId: number; address: Address };

    async function run(query: string, variables: Record<string, unknown> = {}): Promise<any> {
      const r = await executeOmnigraphRequest({ query, variables }, options);
      expect(r.body.errors, query).toBeUndefined();
      return r.body.data;
    }

    beforeAll(async () => {
      const { setHandlerSettings } = await import("../../src/plugins/shared/ens-handlers/context");
      const { setEnsv2Anchors } = await import("../../src/plugins/ensv2/lib/context");
      const { labelRegisteredOrReserved } = await import("../../src/plugins/ensv2/lib/lifecycle");
      const { rolesChanged } = await import("../../src/plugins/ensv2/lib/permissions");

      // The facts the peer's answers give: `eth`'s registry and chain (from its id's contract part, which is the
      // registry's AccountId), the contract whose permissions were asked, and each resource, user and role bitmap.
      const eth = peerAnswer("eth-by-version").domains.edges.find((e: any) => e.node.__typename === "ENSv2Domain");
      ethId = eth.node.id;
      const [chain, registry] = ethId.split("-");
      root = registry as Address;
      const permissions = peerCookbook().find((e) => e.id === "permissions-by-contract")!;
      contract = permissions.variables.contract as typeof contract;
      const chainId = Number(chain);
      expect(contract.chainId).toBe(chainId);

      const store = new FakeStore("copies");
      setHandlerSettings({
        isSubgraphCompatible: false,
        labelMode: "normalized",
        ensRootChainId: chainId,
        heal: async () => null,
        noteBlock: () => {},
      });
      setEnsv2Anchors({ rootRegistry: root, ethRegistry: contract.address });
      const context = { db: store.db as never, chain: { id: chainId } };
      let block = 0n;
      const event = <A>(address: Address, args: A) => {
        block++;
        return {
          args,
          block: { number: block, timestamp: 1_700_000_000n + block },
          log: { logIndex: 0, address },
          transaction: { hash: keccak256(stringToBytes(`tx${block}`)) as Hex, from: contract.address },
        };
      };
      const owner = "0x801d2e48d378f161dba7ad7ad002ad557714c191" as Address;
      await labelRegisteredOrReserved(
        context,
        event(root, {
          tokenId: BigInt(labelhash("eth")),
          labelHash: labelhash("eth"),
          label: "eth",
          owner,
          expiry: 2n ** 63n,
          sender: owner,
        }),
      );
      // Not from the peer's answers: a second name in the root registry, for the cursor test's ties.
      await labelRegisteredOrReserved(
        context,
        event(root, {
          tokenId: BigInt(labelhash("box")),
          labelHash: labelhash("box"),
          label: "box",
          owner,
          expiry: 2n ** 63n,
          sender: owner,
        }),
      );
      for (const r of peerAnswer("permissions-by-contract").permissions.resources.edges) {
        for (const u of r.node.users.edges) {
          await rolesChanged(
            context,
            event(contract.address, {
              resource: BigInt(r.node.resource),
              account: u.node.user.address as Address,
              oldRoleBitmap: 0n,
              newRoleBitmap: BigInt(u.node.roles),
            }),
          );
        }
      }
      setEnsv2Anchors(undefined);
      setHandlerSettings(undefined);
      const rows: Rows = {};
      for (const [table, byId] of store.tables) rows[table] = [...byId.values()];
      ({ t, options, internalErrors } = await seededOmnigraph("og_peer_ids", rows));
    }, 120_000);

    afterAll(async () => {
      await t?.drop();
    });

    it("answers eth-by-version with the peer's ENSv2 id, and finds that domain by it (and by our earlier hex form)", async () => {
      const query = peerCookbook().find((e) => e.id === "eth-by-version")!.query;
      const ours = (await run(query)).domains.edges.map((e: any) => e.node);
      expect(ours).toEqual([{ __typename: "ENSv2Domain", id: ethId }]);

      const byId = `query($id: DomainId!) { domain(by: { id: $id }) { __typename id canonical { name { interpreted } }
        registry { id } registration { id } } }`;
      const found = (await run(byId, { id: ethId })).domain;
      expect(found).toEqual({
        __typename: "ENSv2Domain",
        id: ethId,
        canonical: { name: { interpreted: "eth" } },
        registry: { id: `${contract.chainId}-${root}` },
        // enssdk makeRegistrationId: `<domainId>-<registrationIndex>`, the first registration 0.
        registration: { id: `${ethId}-0` },
      });
      const [chain, registry, storage] = ethId.split("-");
      const hex = `${chain}-${registry}-0x${BigInt(storage!).toString(16).padStart(64, "0")}`;
      expect((await run(byId, { id: hex })).domain).toEqual(found);
      expect((await run(byId, { id: hex.toUpperCase().replace(/^(\d+)-0X/, "$1-0x") })).domain).toEqual(found);
      expect(internalErrors).toEqual([]);
    });

    it("answers permissions-by-contract with the peer's resources in the peer's order and its PermissionsUser ids", async () => {
      const example = peerCookbook().find((e) => e.id === "permissions-by-contract")!;
      const ours = (await run(example.query, example.variables)).permissions;
      // The whole resources list: the order (the ids' text order, decimal resources: `112…` before `300…`), each
      // resource's users and each PermissionsUser's id, text for text.
      expect(ours.resources).toEqual(peerAnswer("permissions-by-contract").permissions.resources);

      // Each PermissionsUser id and resource id, as the peer wrote them, and paged by cursor one resource at a time.
      const resourceIds: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: any = (
          await run(
            `query($c: AccountIdInput!, $after: String) { permissions(by: { contract: $c }) { resources(first: 1, after: $after) {
              edges { cursor node { id resource } } pageInfo { hasNextPage endCursor } } } }`,
            { c: contract, after },
          )
        ).permissions.resources;
        resourceIds.push(...page.edges.map((e: any) => e.node.id));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const peerResources = peerAnswer("permissions-by-contract").permissions.resources.edges;
      expect(resourceIds).toEqual(
        peerResources.map((e: any) => `${contract.chainId}-${contract.address}-${e.node.resource}`),
      );
      expect(internalErrors).toEqual([]);
    });

    it("continues a list from a cursor an earlier build gave (hex storage ids and resources) where today's continues", async () => {
      const decode = (c: string) => JSON.parse(Buffer.from(c, "base64url").toString("utf8")) as [unknown, string];
      const encode = (key: unknown, id: string) => Buffer.from(JSON.stringify([key, id])).toString("base64url");
      const hex = (n: string) => `0x${BigInt(n).toString(16).padStart(64, "0")}`;
      /** An id of today with its number after the contract (`<chain>-<contract>-<n>…`) in hex, as earlier builds wrote it. */
      const earlier = (id: string) => id.replace(/^(\d+-0x[0-9a-f]{40}-)(\d+)/, (_, head, n) => `${head}${hex(n)}`);

      // A registry's domains by DEPTH: every key ties, so the id alone orders them and a cursor's id places it.
      const domains = `query($c: AccountIdInput!, $after: String) { registry(by: { contract: $c }) {
        domains(first: 1, after: $after, order: { by: DEPTH }) { edges { cursor node { id } } } } }`;
      const c = { chainId: contract.chainId, address: root };
      const [first] = (await run(domains, { c })).registry.domains.edges;
      const [key, id] = decode(first.cursor);
      expect(id).toBe(first.node.id);
      const next = (await run(domains, { c, after: first.cursor })).registry.domains.edges;
      expect(next).toHaveLength(1);
      expect(next[0].node.id).not.toBe(first.node.id);
      expect((await run(domains, { c, after: encode(key, earlier(id)) })).registry.domains.edges).toEqual(next);

      // A contract's resources, and one account's PermissionsUsers (ids `<chain>-<contract>-<resource>-<account>`).
      const resources = `query($c: AccountIdInput!, $after: String) { permissions(by: { contract: $c }) {
        resources(first: 2, after: $after) { edges { cursor node { id } } } } }`;
      const [r0] = (await run(resources, { c: contract })).permissions.resources.edges;
      const [resource] = decode(r0.cursor);
      const afterR0 = (await run(resources, { c: contract, after: r0.cursor })).permissions.resources.edges;
      expect(afterR0.length).toBeGreaterThan(0);
      const old = encode(hex(String(resource)), hex(String(resource)));
      expect((await run(resources, { c: contract, after: old })).permissions.resources.edges).toEqual(afterR0);

      const user = "0xffffffffff52d316b7bd028358089bc8066b8f80";
      const users = `query($a: Address!, $after: String) { account(by: { address: $a }) {
        permissions(first: 1, after: $after) { edges { cursor node { id } } } } }`;
      const [u0] = (await run(users, { a: user })).account.permissions.edges;
      const afterU0 = (await run(users, { a: user, after: u0.cursor })).account.permissions.edges;
      expect(afterU0).toHaveLength(1);
      const [uKey, uId] = decode(u0.cursor);
      expect(earlier(uId)).not.toBe(uId);
      const oldUser = encode(earlier(String(uKey)), earlier(uId));
      expect((await run(users, { a: user, after: oldUser })).account.permissions.edges).toEqual(afterU0);
      expect(internalErrors).toEqual([]);
    });
  },
);
