import { type SQL, sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { recordKeyId, registryNodeId, resolverRecordsId, reverseNameId } from "../../lib/resolution-ids";
import { rowsOf, type SqlDb } from "../shared/read-db";
import { interpretAddress, interpretName, interpretText } from "./interpret";
import { emptyAnswer, NotInIndex, type RecordsAnswer, type RecordsRequest, type ResolutionBackend } from "./resolve";
import { effectiveResolver, nearestResolver, type RegistryRecord, type RegistrySource } from "./routing";

/*
 * Resolution from the protocol-acceleration tables: primary-key lookups only (one query per table per request).
 * Whether a resolver is ENSIP-10 extended is not an event: that probe is the onchain backend's, cached.
 */

const idList = (ids: string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

export class IndexBackend implements ResolutionBackend {
  constructor(
    private readonly db: SqlDb,
    private readonly probe: Pick<ResolutionBackend, "isExtendedResolver">,
  ) {}

  async findResolver(source: RegistrySource, ancestors: { node: Hex }[]) {
    const registries = [source.registry, ...(source.oldRegistry ? [source.oldRegistry] : [])];
    const ids = ancestors.flatMap((a) => registries.map((r) => registryNodeId(source.chainId, r, a.node)));
    const rows = rowsOf<{ id: string; resolver: Address | null; has_owner: boolean }>(
      await this.db.execute(sql`select id, resolver, has_owner from registry_node where id in (${idList(ids)})`),
    );
    const byId = new Map<string, RegistryRecord>(
      rows.map((r) => [r.id, { resolver: r.resolver, hasOwner: r.has_owner }]),
    );
    const chain = ancestors.map((a) => ({
      resolver: effectiveResolver(
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
    const recordsId = resolverRecordsId(chainId, resolver, node);
    const [records] = rowsOf<{ version: string | number | bigint; name: string | null }>(
      await this.db.execute(sql`select version, name from resolver_records where id = ${recordsId}`),
    );
    if (!records) return emptyAnswer(request);
    const version = BigInt(records.version);

    const answer = emptyAnswer(request);
    if (request.name) answer.name = interpretName(records.name);
    if (request.coinTypes.length > 0) {
      const ids = request.coinTypes.map((c) => recordKeyId(recordsId, version, c.toString()));
      const rows = rowsOf<{ coin_type: string | number | bigint; value: Hex }>(
        await this.db.execute(sql`select coin_type, value from resolver_address_record where id in (${idList(ids)})`),
      );
      for (const row of rows) {
        const coinType = BigInt(row.coin_type);
        answer.addresses![coinType.toString()] = interpretAddress(coinType, row.value);
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

  async reverseName(address: Address, coinType: bigint): Promise<string | null> {
    const [row] = rowsOf<{ name: string }>(
      await this.db.execute(sql`select name from reverse_name where id = ${reverseNameId(address, coinType)}`),
    );
    return interpretName(row?.name);
  }
}
