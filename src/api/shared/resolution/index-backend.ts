import { type SQL, sql } from "drizzle-orm";
import { type Address, type Hex, namehash } from "viem";
import { ETH_COIN_TYPE } from "../../../lib/coin-types";
import { domainIdOf } from "../../../lib/ensv2-ids";
import { effectiveResolver, type RegistryRecord } from "../../../lib/registry-fallback";
import { recordKeyId, registryNodeId, resolverRecordsId, reverseNameId } from "../../../lib/resolution-ids";
import { rowsOf } from "../../../lib/sql-rows";
import type { SqlDb } from "../read-db";
import {
  AliasUnanswerable,
  chainFromCoinType,
  DEFAULT_COIN_TYPE,
  type Ensv2Settings,
  ensv2LabelsOf,
  literalNamehash,
  type RegistryStep,
  resolveAlias,
  walkEnsv2,
  wireLabels,
} from "./ensv2";
import {
  interpretAbi,
  interpretAddress,
  interpretBytes,
  interpretImplementer,
  interpretName,
  interpretPubkey,
  interpretText,
  interpretVersion,
} from "./interpret";
import type { OnchainBackend } from "./onchain-backend";
import { type AbiRecord, emptyAnswer, type RecordsAnswer, type RecordsRequest } from "./records";
import { NotInIndex, type ResolutionBackend } from "./resolve";
import { nearestResolver, type RegistrySource } from "./routing";

/*
 * Resolution from the index: the protocol-acceleration tables (resolvers, records, reverse names) and, for ENSv2,
 * the ensv2 plugin's ensv2_domain (each label's resolver, subregistry and expiry). Primary-key lookups only.
 * What events cannot tell — whether a resolver is ENSIP-10 extended or an ENSv2 PermissionedResolver, whether a
 * registry is a plain PermissionedRegistry — is the onchain backend's probe, cached.
 */

const idList = (ids: string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

interface RecordsRow {
  version: string | number | bigint;
  name: string | null;
  contenthash: Hex | null;
  pubkey_x: Hex | null;
  pubkey_y: Hex | null;
  abi_content_types: (string | number | bigint)[] | null;
  dnszonehash: Hex | null;
}

/** ERC-165's own interface id: a contract that answers it may be asked about others. */
const ERC165_INTERFACE = "0x01ffc9a7";

export interface IndexBackendOptions {
  /** Whether the ensv2 plugin runs: without its tables the ENSv2 step cannot be answered from the index. */
  ensv2Indexed: boolean;
  /** The time ENSv2 expiries are compared with: the ENSv2 chain's latest indexed block (Unix seconds). */
  ensv2Now?: bigint;
}

type Probe = Pick<
  OnchainBackend,
  "isExtendedResolver" | "resolverKind" | "isPlainPermissionedRegistry" | "supportsInterface"
>;

export class IndexBackend implements ResolutionBackend {
  constructor(
    private readonly db: SqlDb,
    private readonly probe: Probe,
    private readonly options: IndexBackendOptions = { ensv2Indexed: false },
  ) {}

  async findResolver(source: RegistrySource, ancestors: { node: Hex }[]) {
    const registries = [source.registry, ...(source.oldRegistry ? [source.oldRegistry] : [])];
    const ids = ancestors.flatMap((a) => registries.map((r) => registryNodeId(source.chainId, r, a.node)));
    const rows = rowsOf<{ id: string; resolver: Address | null; record_exists: boolean }>(
      await this.db.execute(sql`select id, resolver, record_exists from registry_node where id in (${idList(ids)})`),
    );
    const byId = new Map<string, RegistryRecord>(
      rows.map((r) => [r.id, { resolver: r.resolver, recordExists: r.record_exists }]),
    );
    const chain = ancestors.map((a) => ({
      resolver: effectiveResolver(
        a.node,
        byId.get(registryNodeId(source.chainId, source.registry, a.node)),
        source.oldRegistry ? byId.get(registryNodeId(source.chainId, source.oldRegistry, a.node)) : undefined,
        source.oldRegistry !== undefined,
      ),
    }));
    return nearestResolver(chain);
  }

  isExtendedResolver(chainId: number, resolver: Address): Promise<boolean> {
    return this.probe.isExtendedResolver(chainId, resolver);
  }

  async records(
    chainId: number,
    resolver: Address,
    node: Hex,
    request: RecordsRequest,
    extendedName?: string,
  ): Promise<RecordsAnswer> {
    // An extended resolver computes its answers (often offchain): events do not tell them.
    if (extendedName !== undefined)
      throw new NotInIndex(`resolver ${resolver} on chain ${chainId} is an ENSIP-10 extended resolver`);
    return this.recordsAt(chainId, resolver, node, request, false);
  }

  /**
   * The records a resolver holds for `node`, as its getters read them. `defaultAddress`: PermissionedResolver's
   * `addr(node, coinType)`, which answers an EVM chain's empty record with the default EVM address.
   */
  private async recordsAt(
    chainId: number,
    resolver: Address,
    node: Hex,
    request: RecordsRequest,
    defaultAddress: boolean,
  ): Promise<RecordsAnswer> {
    const recordsId = resolverRecordsId(chainId, resolver, node);
    const [records] = rowsOf<RecordsRow>(
      await this.db.execute(
        // numeric[] has no parser in every driver; text[] has.
        sql`select version, name, contenthash, pubkey_x, pubkey_y, abi_content_types::text[] as abi_content_types, dnszonehash from resolver_records where id = ${recordsId}`,
      ),
    );
    if (!records) return emptyAnswer(request);
    const version = BigInt(records.version);

    const answer = emptyAnswer(request);
    if (request.name) answer.name = interpretName(records.name);
    if (request.contenthash) answer.contenthash = interpretBytes(records.contenthash);
    if (request.pubkey) answer.pubkey = interpretPubkey(records.pubkey_x, records.pubkey_y);
    if (request.dnszonehash) answer.dnszonehash = interpretBytes(records.dnszonehash) as Hex | null;
    if (request.version) answer.version = interpretVersion(records.version);
    if (request.abiMasks?.length) answer.abis = await this.abis(recordsId, version, records, request.abiMasks);
    if (request.interfaces?.length) {
      // ENSIP-8's fallback reads the name's ETH address (addr(node), as the resolver answers it).
      const eth = await this.recordsAt(
        chainId,
        resolver,
        node,
        { coinTypes: [ETH_COIN_TYPE], texts: [], name: false },
        defaultAddress,
      );
      answer.interfaces = await this.interfaces(
        chainId,
        recordsId,
        version,
        request.interfaces,
        eth.addresses?.[ETH_COIN_TYPE.toString()] ?? null,
      );
    }
    if (request.coinTypes.length > 0) {
      const wanted = [...request.coinTypes, ...(defaultAddress ? [DEFAULT_COIN_TYPE] : [])];
      const ids = wanted.map((c) => recordKeyId(recordsId, version, c.toString()));
      const rows = rowsOf<{ coin_type: string | number | bigint; value: Hex }>(
        await this.db.execute(sql`select coin_type, value from resolver_address_record where id in (${idList(ids)})`),
      );
      const raw = new Map(rows.map((r) => [BigInt(r.coin_type), r.value]));
      for (const coinType of request.coinTypes) {
        let value = raw.get(coinType);
        if (defaultAddress && (!value || value === "0x") && chainFromCoinType(coinType) > 0n)
          value = raw.get(DEFAULT_COIN_TYPE);
        answer.addresses![coinType.toString()] = interpretAddress(coinType, value);
      }
    }
    if (request.texts.length > 0) {
      const ids = request.texts.map((k) => recordKeyId(recordsId, version, k));
      const rows = rowsOf<{ key: string; value: string | null; has_value: boolean }>(
        await this.db.execute(sql`select key, value, has_value from resolver_text_record where id in (${idList(ids)})`),
      );
      for (const row of rows) {
        // The older TextChanged announced the key without its value: only the resolver knows it.
        if (!row.has_value) throw new NotInIndex(`text "${row.key}" was set without its value (older TextChanged)`);
        answer.texts![row.key] = interpretText(row.value);
      }
    }
    return answer;
  }

  /** ABI(node, mask) for each mask: the lowest bit of the mask whose ABI is set (non-empty data) under this version. */
  private async abis(recordsId: string, version: bigint, records: RecordsRow, masks: bigint[]) {
    const stored = (records.abi_content_types ?? []).map((t) => BigInt(t));
    const asked = stored.filter((t) => masks.some((m) => (m & t) !== 0n));
    const rows =
      asked.length === 0
        ? []
        : rowsOf<{ content_type: string | number | bigint; data: Hex }>(
            await this.db.execute(
              sql`select content_type, data from resolver_abi_record where id in (${idList(asked.map((t) => recordKeyId(recordsId, version, t.toString())))})`,
            ),
          );
    const data = new Map(rows.map((r) => [BigInt(r.content_type), r.data]));
    // Every ABIChanged writes its data row unless the index was built with RESOLVER_READS=false.
    const unread = asked.find((t) => !data.has(t));
    if (unread !== undefined)
      throw new NotInIndex(`ABI content type ${unread} was indexed without its data (RESOLVER_READS=false)`);
    const out: Record<string, AbiRecord | null> = {};
    for (const mask of masks) {
      const first = [...data.entries()]
        .filter(([t, d]) => (mask & t) !== 0n && interpretAbi(t, d) !== null)
        .sort(([a], [b]) => (a < b ? -1 : 1))[0];
      out[mask.toString()] = first ? interpretAbi(first[0], first[1]) : null;
    }
    return out;
  }

  /**
   * interfaceImplementer(node, id): the implementer set for the id; without one, as PublicResolver and ENSv2's
   * PermissionedResolver answer (ENSIP-8), the name's ETH address when that contract says by ERC-165 that it
   * implements the interface. Those two supportsInterface calls are the chain's (cached like the resolver probes):
   * no event tells what a contract implements.
   */
  private async interfaces(chainId: number, recordsId: string, version: bigint, ids: Hex[], eth: string | null) {
    const rows = rowsOf<{ interface_id: Hex; implementer: Address }>(
      await this.db.execute(
        sql`select interface_id, implementer from resolver_interface_record where id in (${idList(ids.map((id) => recordKeyId(recordsId, version, id)))})`,
      ),
    );
    const set = new Map(rows.map((r) => [r.interface_id.toLowerCase(), interpretImplementer(r.implementer)]));
    const out: Record<string, Address | null> = {};
    await Promise.all(
      ids.map(async (id) => {
        const implementer = set.get(id) ?? null;
        if (implementer !== null || eth === null) {
          out[id] = implementer;
          return;
        }
        const a = eth as Address;
        const implements_ =
          (await this.probe.supportsInterface(chainId, a, ERC165_INTERFACE)) &&
          (await this.probe.supportsInterface(chainId, a, id));
        out[id] = implements_ ? a : null;
      }),
    );
    return out;
  }

  async reverseName(address: Address, coinType: bigint): Promise<string | null> {
    const [row] = rowsOf<{ name: string }>(
      await this.db.execute(sql`select name from reverse_name where id = ${reverseNameId(address, coinType)}`),
    );
    return interpretName(row?.name);
  }

  /**
   * LibRegistry.findResolver over ensv2_domain: each label's row in the registry the walk is in (by storage id),
   * hidden once expired at the ENSv2 chain's latest indexed block, as `getResolver`/`getSubregistry` hide it.
   */
  async findEnsv2Resolver(ensv2: Ensv2Settings, name: string) {
    if (!this.options.ensv2Indexed) throw new NotInIndex("the ensv2 plugin is not indexed");
    const now = this.options.ensv2Now ?? BigInt(Math.floor(Date.now() / 1000));
    const anchors = new Set([ensv2.rootRegistry, ensv2.ethRegistry]);
    return walkEnsv2(ensv2.rootRegistry, ensv2LabelsOf(name).labels, async (registry, label) => {
      // The index knows PermissionedRegistry's rules; a WrapperRegistry also reads the NameWrapper (ensv2.ts).
      if (!anchors.has(registry) && !(await this.probe.isPlainPermissionedRegistry(ensv2.chainId, registry)))
        throw new NotInIndex(`registry ${registry} is not a plain PermissionedRegistry`);
      const id = domainIdOf(ensv2.chainId, registry, BigInt(label.labelhash));
      const [row] = rowsOf<{ resolver: Address | null; subregistry: Address | null; expiry: string | number | bigint }>(
        await this.db.execute(sql`select resolver, subregistry, expiry from ensv2_domain where id = ${id}`),
      );
      const none: RegistryStep = { resolver: null, subregistry: null };
      if (!row || now >= BigInt(row.expiry)) return none;
      return { resolver: row.resolver, subregistry: row.subregistry };
    });
  }

  /**
   * What UniversalResolverV2 reads from the resolver it found. A PermissionedResolver (extended) answers for its
   * alias of the name from its records; another extended resolver computes its answers (onchain instead); any other
   * answers for its own name only.
   */
  async ensv2Records(ensv2: Ensv2Settings, resolver: Address, name: string, index: number, request: RecordsRequest) {
    const kind = await this.probe.resolverKind(ensv2.chainId, resolver);
    if (kind.permissioned) {
      const { wire, labels } = ensv2LabelsOf(name);
      let alias: Hex | undefined;
      try {
        alias = await resolveAlias(wire, (nodes) => this.aliases(ensv2.chainId, resolver, nodes));
      } catch (error) {
        if (error instanceof AliasUnanswerable) throw new NotInIndex(`resolver ${resolver}: ${error.message}`);
        throw error;
      }
      const node = literalNamehash(alias ? wireLabels(alias)! : labels);
      return this.recordsAt(ensv2.chainId, resolver, node, request, true);
    }
    if (kind.extended)
      throw new NotInIndex(`resolver ${resolver} on chain ${ensv2.chainId} is an ENSIP-10 extended resolver`);
    if (index > 0) return emptyAnswer(request);
    return this.recordsAt(ensv2.chainId, resolver, namehash(name), request, false);
  }

  /** The aliases a PermissionedResolver holds for some nodes: node → DNS-encoded target (`0x`: removed). */
  private async aliases(chainId: number, resolver: Address, nodes: Hex[]): Promise<Map<Hex, Hex>> {
    const ids = nodes.map((n) => `${chainId}-${resolver}-${n}`);
    const rows = rowsOf<{ from_node: Hex; to_name: Hex }>(
      await this.db.execute(sql`select from_node, to_name from resolver_alias where id in (${idList(ids)})`),
    );
    return new Map(rows.map((r) => [r.from_node, r.to_name]));
  }
}
