import { type Address, concat, type Hex, toBytes, toHex } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { dnsWire } from "../names";
import type { ScenarioContext } from "./context";
import type { NameFacts } from "./model";

const TYPE_A = 1;
const TYPE_TXT = 16;
const TTL = 3600;

/** One resource record in wire format (RFC 1035 §4.1.3), class IN. */
function resourceRecord(ownerLabels: string[], type: number, rdata: Uint8Array): Hex {
  const u16 = (n: number) => Uint8Array.of(n >> 8, n & 0xff);
  const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  return toHex(concat([toBytes(dnsWire(ownerLabels)), u16(type), u16(1), u32(TTL), u16(rdata.length), rdata]));
}

/** TXT RDATA: the value split into character-strings of at most 255 bytes. */
function txtData(value: string): Uint8Array {
  const bytes = toBytes(value);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Uint8Array.of(chunk.length), chunk);
  }
  return concat(parts);
}

/** `<key>.ens` as DNS labels ("com.twitter" → com, twitter, ens). */
const keyLabels = (key: string) => [...key.split("."), "ens"];

/**
 * DNS records on a chain's resolvers. On the 3DNS resolver (TTL-carrying DNSRecordChanged) a TXT record at
 * `<key>.ens` is the text record `key`: the scenario sets texts that way (one over a `setText` value, one under a
 * later `setText`, one longer than a TXT character-string), deletes one, and adds records that are not texts (an A
 * record at `url.ens`, a TXT record outside `.ens`), a zonehash and a zone. On an ordinary resolver (`resolver`,
 * ens-contracts' TTL-less events) a TXT record at `avatar.ens` stays a DNS record: `text()` never reads it.
 * Facts' `texts` follow what `text()` answers afterwards.
 */
export async function playDnsRecords(
  ctx: ScenarioContext,
  threednsResolver: Address,
  threednsNames: NameFacts[],
  resolver?: Address,
): Promise<void> {
  const { own } = loadDevnetContracts();
  const live = threednsNames.filter((f) => !f.deleted && f.registryOwner);
  if (live.length === 0) return;
  const abi3 = own.ThreeDNSResolver.abi;
  const on3 = (f: NameFacts, fn: string, args: unknown[]) =>
    Chain.call(f.registryOwner!, threednsResolver, abi3, fn, [f.node, ...args], `ThreeDNSResolver.${fn}`);
  const setTxt = (f: NameFacts, key: string, value: string, facts = true) => {
    if (facts) f.texts = { ...(f.texts ?? {}), [key]: value };
    return on3(f, "setDNSRecord", [
      dnsWire(keyLabels(key)),
      TYPE_TXT,
      TTL,
      resourceRecord(keyLabels(key), TYPE_TXT, txtData(value)),
    ]);
  };
  const [a, b = a, c = a] = live;
  ctx.log(`${ctx.chain.chainId}: DNS records on ${live.length > 2 ? 3 : live.length} 3DNS names`);

  const step1: Tx[] = [
    setTxt(a!, "com.twitter", `@${a!.labels[0]}`),
    setTxt(a!, "url", `https://${a!.name}/`), // over the url setText may have written
    setTxt(b!, "description", `${"a long description ".repeat(20)}of ${b!.name}`), // 400 bytes: two character-strings
    setTxt(c!, "avatar", `https://${c!.name}/avatar.png`),
    on3(a!, "setDNSRecord", [
      dnsWire(["url", "ens"]),
      TYPE_A,
      TTL,
      resourceRecord(["url", "ens"], TYPE_A, Uint8Array.of(192, 0, 2, 1)),
    ]),
    on3(a!, "setDNSRecord", [
      dnsWire(["_dmarc", ...a!.labels]),
      TYPE_TXT,
      TTL,
      resourceRecord(["_dmarc", ...a!.labels], TYPE_TXT, txtData("v=DMARC1; p=none")),
    ]),
    on3(a!, "setZonehash", ["0xe301017012200000000000000000000000000000000000000000000000000000000000000001"]),
    on3(a!, "createZone", []),
  ];
  await ctx.chain.send(step1);

  // A later setText wins over the TXT record; deleting a TXT record clears its text.
  const later = `https://${c!.name}/avatar-after.png`;
  const step2: Tx[] = [
    on3(c!, "setText", ["avatar", later]),
    on3(a!, "deleteDNSRecord", [dnsWire(keyLabels("com.twitter")), TYPE_TXT]),
  ];
  c!.texts = { ...(c!.texts ?? {}), avatar: later };
  const { ["com.twitter"]: _deleted, ...rest } = a!.texts ?? {};
  a!.texts = rest;
  await ctx.chain.send(step2);

  if (!resolver) return;
  const plain = [...ctx.book.byNode.values()].find(
    (f) => f.resolver === resolver && !f.deleted && f.registryOwner && f.texts,
  );
  if (!plain) return;
  const owner = plain.registryOwner!;
  await ctx.chain.send([
    Chain.call(
      owner,
      resolver,
      own.ModernResolver.abi,
      "setDNSRecord",
      [
        plain.node,
        dnsWire(keyLabels("avatar")),
        TYPE_TXT,
        resourceRecord(keyLabels("avatar"), TYPE_TXT, txtData("not a text record")),
      ],
      "Resolver.setDNSRecord",
    ),
    Chain.call(
      owner,
      resolver,
      own.ModernResolver.abi,
      "setDNSRecord",
      [
        plain.node,
        dnsWire(keyLabels("url")),
        TYPE_TXT,
        resourceRecord(keyLabels("url"), TYPE_TXT, txtData("not a text record either")),
      ],
      "Resolver.setDNSRecord",
    ),
  ]);
  await ctx.chain.send([
    Chain.call(
      owner,
      resolver,
      own.ModernResolver.abi,
      "deleteDNSRecord",
      [plain.node, dnsWire(keyLabels("url")), TYPE_TXT],
      "Resolver.deleteDNSRecord",
    ),
  ]);
}
