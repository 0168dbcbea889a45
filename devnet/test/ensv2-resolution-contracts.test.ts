import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeAbiParameters,
  decodeEventLog,
  decodeFunctionResult,
  defineChain,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  labelhash,
  namehash,
  type PublicClient,
  parseAbi,
  type TransactionReceipt,
  toEventSelector,
  toFunctionSelector,
  toHex,
  type WalletClient,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONED_RESOLVER_INTERFACE } from "../../src/api/shared/resolution/ensv2";
import { dnsEncode } from "../../src/lib/dns-wire";
import { type AnvilChain, startAnvil } from "../src/anvil";
import { loadRealEnsContracts, type RealArtifact } from "../src/artifacts";
import { RESOLVER_ROLES } from "../src/ensv2-roles";
import { type CompiledContract, compileContracts } from "../src/solc";

/*
 * Our ENSv2 resolution contracts (devnet/contracts: PermissionedResolver, UniversalResolverV2, ENSV1Resolver) on one
 * anvil: the resolver as EIP-1167 clones of its implementation (records, roles, versions, aliases, `resolve`), and
 * viem's getEnsAddress/getEnsText through UniversalResolverV2 over a tree of DevnetTestRegistry registries, with the
 * real ENSv1 registry and PublicResolver (npm truffle builds) behind ENSV1Resolver. ANVIL_PORT picks the anvil's port.
 */

const CHAIN_ID = 31_392;
/** The root name, DNS-encoded. */
const ROOT_NAME: Hex = "0x00";

const ROLE = RESOLVER_ROLES;
const EVERY_ROLE = Object.values(ROLE).reduce((a, r) => a | r | (r << 128n), 0n);

/** The events contracts-v2's PermissionedResolver (5677359d) emits, as its compiled ABI spells them. */
const REAL_RESOLVER_EVENTS = [
  "event ABIChanged(bytes32 indexed node, uint256 indexed contentType)",
  "event AddrChanged(bytes32 indexed node, address a)",
  "event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress)",
  "event AliasChanged(bytes indexed indexedFromName, bytes indexed indexedToName, bytes fromName, bytes toName)",
  "event ContenthashChanged(bytes32 indexed node, bytes hash)",
  "event DataChanged(bytes32 indexed node, string indexed indexedKey, string key, bytes indexed indexedData)",
  "event EACRolesChanged(uint256 indexed resource, address indexed account, uint256 oldRoleBitmap, uint256 newRoleBitmap)",
  "event Initialized(uint64 version)",
  "event InterfaceChanged(bytes32 indexed node, bytes4 indexed interfaceID, address implementer)",
  "event NameChanged(bytes32 indexed node, string name)",
  "event NamedAddrResource(uint256 indexed resource, bytes name, uint256 indexed coinType)",
  "event NamedDataResource(uint256 indexed resource, bytes name, bytes32 indexed keyHash, string key)",
  "event NamedResource(uint256 indexed resource, bytes name)",
  "event NamedTextResource(uint256 indexed resource, bytes name, bytes32 indexed keyHash, string key)",
  "event PubkeyChanged(bytes32 indexed node, bytes32 x, bytes32 y)",
  "event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)",
  "event VersionChanged(bytes32 indexed node, uint64 newVersion)",
] as const;
const realEventsAbi = parseAbi(REAL_RESOLVER_EVENTS);

/** `type(I).interfaceId`: the XOR of the selectors the interface declares itself. */
const interfaceId = (signatures: string[]): Hex =>
  `0x${signatures
    .map((s) => Number.parseInt(toFunctionSelector(s).slice(2), 16))
    .reduce((a, b) => (a ^ b) >>> 0)
    .toString(16)
    .padStart(8, "0")}`;

const eventSignature = (e: { name: string; inputs: readonly { type: string; indexed?: boolean; name?: string }[] }) =>
  `event ${e.name}(${e.inputs.map((i) => `${i.type}${i.indexed ? " indexed" : ""} ${i.name}`).join(", ")})`;

/** EIP-1167 minimal proxy creation code for `implementation`. */
const cloneCode = (implementation: Address): Hex =>
  `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${implementation.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`;

/** PermissionedResolverLib.resource(node, part). */
const resourceOf = (node: Hex, part: Hex = toHex(0, { size: 32 })): bigint =>
  BigInt(keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [node, part])));

const checksummed = <K extends string>(addresses: Record<K, string>) =>
  Object.fromEntries(Object.entries(addresses).map(([k, a]) => [k, getAddress(a as string)])) as Record<K, Address>;

let anvil: AnvilChain;
let pub: PublicClient;
let wallet: WalletClient;
let compiled: Record<string, CompiledContract>;
let real: ReturnType<typeof loadRealEnsContracts>;
let deployer: Address;
let owner: Address;
let friend: Address;
let stranger: Address;
let helper: Address;
/** PermissionedResolver's ABI, and its implementation every clone delegates to. */
let resolverAbi: Abi;
let implementation: Address;

async function mined(hash: Hex): Promise<TransactionReceipt> {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function deploy(contract: CompiledContract | RealArtifact, args: unknown[] = [], from = deployer) {
  const hash = await wallet.deployContract({
    abi: contract.abi,
    bytecode: contract.bytecode,
    args,
    account: from,
    chain: null,
  } as never);
  return getAddress((await mined(hash)).contractAddress!);
}

async function send(from: Address, to: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
  const hash = await wallet.sendTransaction({
    account: from,
    to,
    data: encodeFunctionData({ abi, functionName, args } as never),
    chain: null,
  });
  return mined(hash);
}

function read<T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): Promise<T> {
  return pub.readContract({ address, abi, functionName, args } as never) as Promise<T>;
}

/** The custom error a call would revert with (simulated from `from`), decoded with `abi`. */
async function revertOf(
  from: Address,
  to: Address,
  abi: Abi,
  functionName: string,
  args: readonly unknown[],
): Promise<{ errorName: string; args: readonly unknown[] }> {
  try {
    await pub.simulateContract({ account: from, address: to, abi, functionName, args } as never);
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
      return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
    }
    throw error;
  }
  throw new Error(`${functionName} did not revert`);
}

/** Every log of a receipt decoded with the real event signatures (a topic or layout mismatch throws). */
function realEvents(receipt: TransactionReceipt, address: Address) {
  return receipt.logs
    .filter((l) => l.address.toLowerCase() === address.toLowerCase())
    .map((l) => decodeEventLog({ abi: realEventsAbi, topics: l.topics, data: l.data, strict: true }));
}

async function newResolver(admin: Address, roles = EVERY_ROLE): Promise<Address> {
  const receipt = await mined(
    await wallet.sendTransaction({ account: deployer, data: cloneCode(implementation), chain: null }),
  );
  const clone = getAddress(receipt.contractAddress!);
  await send(admin, clone, resolverAbi, "initialize", [admin, roles]);
  return clone;
}

beforeAll(async () => {
  compiled = compileContracts();
  real = loadRealEnsContracts();
  resolverAbi = compiled.PermissionedResolver!.abi;
  anvil = await startAnvil({
    chainId: CHAIN_ID,
    port: process.env.ANVIL_PORT ? Number(process.env.ANVIL_PORT) : undefined,
  });
  const chain = defineChain({
    id: CHAIN_ID,
    name: "resolution-contracts",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  pub = createPublicClient({ chain, transport: http(anvil.rpcUrl) }) as PublicClient;
  wallet = createWalletClient({ chain, transport: http(anvil.rpcUrl) });
  [deployer, owner, friend, stranger, helper] = (await wallet.getAddresses()) as [
    Address,
    Address,
    Address,
    Address,
    Address,
  ];
  implementation = await deploy(compiled.PermissionedResolver!);
});

afterAll(async () => {
  await anvil?.stop();
});

describe("PermissionedResolver (EIP-1167 clones of one implementation)", () => {
  it("emits exactly the events of contracts-v2's PermissionedResolver, with their indexed flags", () => {
    const ours = resolverAbi.filter((x) => x.type === "event").map((e) => eventSignature(e as never));
    expect(ours.sort()).toEqual([...REAL_RESOLVER_EVENTS].sort());
  });

  it("initializes once per clone, never the implementation, granting the admin its root roles", async () => {
    expect(await revertOf(owner, implementation, resolverAbi, "initialize", [owner, EVERY_ROLE])).toEqual({
      errorName: "InvalidInitialization",
      args: [],
    });
    const clone = (
      await mined(await wallet.sendTransaction({ account: deployer, data: cloneCode(implementation), chain: null }))
    ).contractAddress!;
    expect(await revertOf(owner, clone, resolverAbi, "initialize", [zeroAddress, EVERY_ROLE])).toMatchObject({
      errorName: "InvalidOwner",
    });
    const receipt = await send(owner, clone, resolverAbi, "initialize", [owner, EVERY_ROLE]);
    expect(realEvents(receipt, clone).map((e) => [e.eventName, e.args])).toEqual([
      ["EACRolesChanged", { resource: 0n, account: owner, oldRoleBitmap: 0n, newRoleBitmap: EVERY_ROLE }],
      ["Initialized", { version: 1n }],
    ]);
    expect(await read(clone, resolverAbi, "roles", [0n, owner])).toBe(EVERY_ROLE);
    expect(await revertOf(stranger, clone, resolverAbi, "initialize", [stranger, EVERY_ROLE])).toMatchObject({
      errorName: "InvalidInitialization",
    });
  });

  it("writes and reads every record kind, with the real events", async () => {
    const r = await newResolver(owner);
    const node = namehash("alice.eth");
    const a = friend;
    const base = 0x80000000n | 8453n;
    const writes: [string, unknown[]][] = [
      ["setAddr", [node, a]],
      ["setAddr", [node, base, helper]],
      ["setAddr", [node, 0n, "0x0014aabbccdd"]],
      ["setText", [node, "url", "https://alice.example"]],
      ["setData", [node, "blob", "0xdeadbeef"]],
      ["setContenthash", [node, "0xe30101701220aa"]],
      ["setName", [node, "alice.eth"]],
      ["setABI", [node, 1n, toHex('[{"type":"function"}]')]],
      ["setPubkey", [node, toHex(1, { size: 32 }), toHex(2, { size: 32 })]],
      ["setInterface", [node, "0x12345678", helper]],
    ];
    const events: string[] = [];
    for (const [fn, args] of writes) {
      const receipt = await send(owner, r, resolverAbi, fn, args);
      events.push(...realEvents(receipt, r).map((e) => e.eventName));
    }
    expect(events).toEqual([
      "AddressChanged",
      "AddrChanged",
      "AddressChanged",
      "AddressChanged",
      "TextChanged",
      "DataChanged",
      "ContenthashChanged",
      "NameChanged",
      "ABIChanged",
      "PubkeyChanged",
      "InterfaceChanged",
    ]);
    expect(await read(r, resolverAbi, "addr", [node])).toBe(a);
    expect(await read(r, resolverAbi, "addr", [node, 60n])).toBe(a.toLowerCase());
    expect(await read(r, resolverAbi, "addr", [node, base])).toBe(helper.toLowerCase());
    expect(await read(r, resolverAbi, "addr", [node, 0n])).toBe("0x0014aabbccdd");
    expect(await read(r, resolverAbi, "text", [node, "url"])).toBe("https://alice.example");
    expect(await read(r, resolverAbi, "data", [node, "blob"])).toBe("0xdeadbeef");
    expect(await read(r, resolverAbi, "contenthash", [node])).toBe("0xe30101701220aa");
    expect(await read(r, resolverAbi, "name", [node])).toBe("alice.eth");
    expect(await read(r, resolverAbi, "ABI", [node, 0xfn])).toEqual([1n, toHex('[{"type":"function"}]')]);
    expect(await read(r, resolverAbi, "ABI", [node, 2n])).toEqual([0n, "0x"]);
    expect(await read(r, resolverAbi, "pubkey", [node])).toEqual([toHex(1, { size: 32 }), toHex(2, { size: 32 })]);
    expect(await read(r, resolverAbi, "interfaceImplementer", [node, "0x12345678"])).toBe(helper);
    expect(await read(r, resolverAbi, "hasAddr", [node, 0x80000000n | 10n])).toBe(false);

    // ENSIP-19: an EVM chain's coin type falls back to the default EVM address; other coin types do not.
    await send(owner, r, resolverAbi, "setAddr", [node, 0x80000000n, stranger]);
    expect(await read(r, resolverAbi, "addr", [node, 0x80000000n | 10n])).toBe(stranger.toLowerCase());
    expect(await read(r, resolverAbi, "addr", [node, 2n])).toBe("0x");

    expect(await revertOf(owner, r, resolverAbi, "setAddr", [node, 60n, "0x010203"])).toEqual({
      errorName: "InvalidEVMAddress",
      args: ["0x010203"],
    });
    expect(await revertOf(owner, r, resolverAbi, "setABI", [node, 3n, "0x00"])).toEqual({
      errorName: "InvalidContentType",
      args: [3n],
    });

    // A record write's events decode with the real layout: TextChanged carries the key hashed in a topic and the value.
    const receipt = await send(owner, r, resolverAbi, "setText", [node, "avatar", "eip155:1/erc721:0x1/1"]);
    expect(receipt.logs[0]!.topics).toEqual([
      toEventSelector(REAL_RESOLVER_EVENTS[15]),
      node,
      keccak256(toHex("avatar")),
    ]);
  });

  it("checks roles: root or the name's resource, per-key grants, the scenario's root grant and revocation", async () => {
    const r = await newResolver(owner);
    const node = namehash("alice.eth");
    const other = namehash("bob.eth");
    expect(await revertOf(stranger, r, resolverAbi, "setText", [node, "url", "x"])).toEqual({
      errorName: "EACUnauthorizedAccountRoles",
      args: [resourceOf(node), ROLE.SET_TEXT, stranger],
    });

    // As the devnet scenario plays it: SET_TEXT at the root to a friend, a write, revoked.
    await send(owner, r, resolverAbi, "grantRootRoles", [ROLE.SET_TEXT, friend]);
    await send(friend, r, resolverAbi, "setText", [node, "url", "by a friend"]);
    expect(await read(r, resolverAbi, "text", [node, "url"])).toBe("by a friend");
    const revoked = await send(owner, r, resolverAbi, "revokeRootRoles", [ROLE.SET_TEXT, friend]);
    expect(realEvents(revoked, r).map((e) => e.args)).toEqual([
      { resource: 0n, account: friend, oldRoleBitmap: ROLE.SET_TEXT, newRoleBitmap: 0n },
    ]);
    expect(await revertOf(friend, r, resolverAbi, "setText", [node, "url", "again"])).toMatchObject({
      errorName: "EACUnauthorizedAccountRoles",
    });

    // One key of one name: announced once (NamedTextResource), then only EACRolesChanged.
    const urlResource = resourceOf(node, keccak256(toHex("url")));
    const granted = await send(owner, r, resolverAbi, "authorizeTextRoles", [
      dnsEncode("alice.eth"),
      "url",
      friend,
      true,
    ]);
    expect(realEvents(granted, r).map((e) => [e.eventName, e.args])).toEqual([
      [
        "NamedTextResource",
        { resource: urlResource, name: dnsEncode("alice.eth"), keyHash: keccak256(toHex("url")), key: "url" },
      ],
      ["EACRolesChanged", { resource: urlResource, account: friend, oldRoleBitmap: 0n, newRoleBitmap: ROLE.SET_TEXT }],
    ]);
    const second = await send(owner, r, resolverAbi, "authorizeTextRoles", [
      dnsEncode("alice.eth"),
      "url",
      helper,
      true,
    ]);
    expect(realEvents(second, r).map((e) => e.eventName)).toEqual(["EACRolesChanged"]);
    await send(friend, r, resolverAbi, "setText", [node, "url", "key grant"]);
    expect(await revertOf(friend, r, resolverAbi, "setText", [node, "avatar", "x"])).toMatchObject({
      errorName: "EACUnauthorizedAccountRoles",
    });
    expect(await revertOf(friend, r, resolverAbi, "setText", [other, "url", "x"])).toMatchObject({
      errorName: "EACUnauthorizedAccountRoles",
    });

    // A whole name (NamedResource), and a coin type of every name (the root name: NamedAddrResource).
    const nameGrant = await send(owner, r, resolverAbi, "authorizeNameRoles", [
      dnsEncode("bob.eth"),
      ROLE.SET_CONTENTHASH,
      friend,
      true,
    ]);
    expect(realEvents(nameGrant, r).map((e) => [e.eventName, e.args])).toEqual([
      ["NamedResource", { resource: resourceOf(other), name: dnsEncode("bob.eth") }],
      [
        "EACRolesChanged",
        { resource: resourceOf(other), account: friend, oldRoleBitmap: 0n, newRoleBitmap: ROLE.SET_CONTENTHASH },
      ],
    ]);
    await send(friend, r, resolverAbi, "setContenthash", [other, "0x01"]);
    expect(await revertOf(friend, r, resolverAbi, "setContenthash", [node, "0x01"])).toMatchObject({
      errorName: "EACUnauthorizedAccountRoles",
    });
    const coinPart = keccak256(encodeAbiParameters([{ type: "uint256" }], [60n]));
    const addrGrant = await send(owner, r, resolverAbi, "authorizeAddrRoles", [ROOT_NAME, 60n, stranger, true]);
    expect(realEvents(addrGrant, r)[0]).toMatchObject({
      eventName: "NamedAddrResource",
      args: { resource: resourceOf(toHex(0, { size: 32 }), coinPart), coinType: 60n },
    });
    await send(stranger, r, resolverAbi, "setAddr", [other, stranger]);
    expect(await revertOf(stranger, r, resolverAbi, "setAddr", [other, 0n, "0x01"])).toMatchObject({
      errorName: "EACUnauthorizedAccountRoles",
    });
    const dataGrant = await send(owner, r, resolverAbi, "authorizeDataRoles", [
      dnsEncode("bob.eth"),
      "k",
      friend,
      true,
    ]);
    expect(realEvents(dataGrant, r)[0]!.eventName).toBe("NamedDataResource");
    await send(friend, r, resolverAbi, "setData", [other, "k", "0x02"]);

    // Only admins grant; the generic grantRoles is disabled.
    expect(
      await revertOf(stranger, r, resolverAbi, "authorizeTextRoles", [dnsEncode("alice.eth"), "url", stranger, true]),
    ).toMatchObject({ errorName: "EACCannotGrantRoles" });
    expect(await revertOf(owner, r, resolverAbi, "grantRoles", [1n, ROLE.SET_TEXT, friend])).toMatchObject({
      errorName: "EACCannotGrantRoles",
    });
    // A revocation leaves the key to be announced again by the next grant once nobody holds it.
    await send(owner, r, resolverAbi, "authorizeTextRoles", [dnsEncode("alice.eth"), "url", friend, false]);
    await send(owner, r, resolverAbi, "authorizeTextRoles", [dnsEncode("alice.eth"), "url", helper, false]);
    const again = await send(owner, r, resolverAbi, "authorizeTextRoles", [
      dnsEncode("alice.eth"),
      "url",
      friend,
      true,
    ]);
    expect(realEvents(again, r).map((e) => e.eventName)).toEqual(["NamedTextResource", "EACRolesChanged"]);
  });

  it("clearRecords bumps the version; reads and writes use the new one", async () => {
    const r = await newResolver(owner);
    const node = namehash("alice.eth");
    await send(owner, r, resolverAbi, "setText", [node, "url", "old"]);
    await send(owner, r, resolverAbi, "setAddr", [node, friend]);
    const cleared = await send(owner, r, resolverAbi, "clearRecords", [node]);
    expect(realEvents(cleared, r).map((e) => [e.eventName, e.args])).toEqual([
      ["VersionChanged", { node, newVersion: 1n }],
    ]);
    expect(await read(r, resolverAbi, "recordVersions", [node])).toBe(1n);
    expect(await read(r, resolverAbi, "text", [node, "url"])).toBe("");
    expect(await read(r, resolverAbi, "addr", [node])).toBe(zeroAddress);
    await send(owner, r, resolverAbi, "setText", [node, "url", "new"]);
    expect(await read(r, resolverAbi, "text", [node, "url"])).toBe("new");
    expect(await revertOf(stranger, r, resolverAbi, "clearRecords", [node])).toEqual({
      errorName: "EACUnauthorizedAccountRoles",
      args: [resourceOf(node), ROLE.CLEAR, stranger],
    });
  });

  it("multicall writes all or nothing; resolve answers through aliases, single calls and multicalls", async () => {
    const r = await newResolver(owner);
    const alice = namehash("alice.eth");
    const sub = namehash("sub.alice.eth");
    const call = (fn: string, args: unknown[]) =>
      encodeFunctionData({ abi: resolverAbi, functionName: fn, args } as never);
    await send(owner, r, resolverAbi, "multicall", [
      [
        call("setText", [alice, "url", "https://alice"]),
        call("setAddr", [alice, friend]),
        call("setText", [sub, "url", "https://sub.alice"]),
      ],
    ]);
    expect(await read(r, resolverAbi, "text", [sub, "url"])).toBe("https://sub.alice");
    await send(owner, r, resolverAbi, "grantRootRoles", [ROLE.SET_TEXT, stranger]);
    expect(
      await revertOf(stranger, r, resolverAbi, "multicall", [
        [call("setText", [alice, "url", "x"]), call("setAddr", [alice, stranger])],
      ]),
    ).toMatchObject({ errorName: "EACUnauthorizedAccountRoles" });

    // Aliases: alias.eth → alice.eth; a name under alias.eth keeps its labels before the suffix.
    const aliased = await send(owner, r, resolverAbi, "setAlias", [dnsEncode("alias.eth"), dnsEncode("alice.eth")]);
    expect(realEvents(aliased, r)[0]).toMatchObject({
      eventName: "AliasChanged",
      args: { fromName: dnsEncode("alias.eth"), toName: dnsEncode("alice.eth") },
    });
    expect(await read(r, resolverAbi, "getAlias", [dnsEncode("sub.alias.eth")])).toBe(dnsEncode("sub.alice.eth"));
    expect(await read(r, resolverAbi, "getAlias", [dnsEncode("other.eth")])).toBe("0x");
    // A chain of aliases is followed; the same alias matching again stops it (a name aliased to one under itself).
    await send(owner, r, resolverAbi, "setAlias", [dnsEncode("hop.eth"), dnsEncode("alias.eth")]);
    expect(await read(r, resolverAbi, "getAlias", [dnsEncode("hop.eth")])).toBe(dnsEncode("alice.eth"));
    await send(owner, r, resolverAbi, "setAlias", [dnsEncode("loop.eth"), dnsEncode("x.loop.eth")]);
    expect(await read(r, resolverAbi, "getAlias", [dnsEncode("loop.eth")])).toBe(dnsEncode("x.loop.eth"));
    expect(await revertOf(friend, r, resolverAbi, "setAlias", [dnsEncode("a.eth"), dnsEncode("b.eth")])).toMatchObject({
      errorName: "EACUnauthorizedAccountRoles",
    });

    const resolveText = async (name: string, key: string) =>
      decodeFunctionResult({
        abi: resolverAbi,
        functionName: "text",
        data: await read<Hex>(r, resolverAbi, "resolve", [dnsEncode(name), call("text", [namehash(name), key])]),
      } as never);
    expect(await resolveText("alice.eth", "url")).toBe("https://alice");
    expect(await resolveText("alias.eth", "url")).toBe("https://alice");
    expect(await resolveText("sub.alias.eth", "url")).toBe("https://sub.alice");
    expect(await resolveText("hop.eth", "url")).toBe("https://alice");

    // A profile it lacks: alone, its call reverts without data (no fallback), as the real one's does; in a
    // multicall its place says UnsupportedResolverProfile.
    const unknown = `0x12345678${alice.slice(2)}` as Hex;
    await expect(read(r, resolverAbi, "resolve", [dnsEncode("alice.eth"), unknown])).rejects.toThrow(
      /reverted for an unknown reason|execution reverted/,
    );
    const multi = await read<Hex>(r, resolverAbi, "resolve", [
      dnsEncode("alias.eth"),
      call("multicall", [
        [call("addr", [namehash("alias.eth")]), call("text", [namehash("alias.eth"), "url"]), unknown],
      ]),
    ]);
    const [answers] = decodeAbiParameters([{ type: "bytes[]" }], multi);
    expect(
      decodeFunctionResult({ abi: resolverAbi, functionName: "addr", args: [alice], data: answers[0]! } as never),
    ).toBe(friend);
    expect(decodeFunctionResult({ abi: resolverAbi, functionName: "text", data: answers[1]! } as never)).toBe(
      "https://alice",
    );
    expect(answers[2]).toBe(
      encodeErrorResult({ abi: resolverAbi, errorName: "UnsupportedResolverProfile", args: ["0x12345678"] }),
    );
  });

  it("answers ERC-165 for the interfaces of the real resolver that it implements", async () => {
    const r = await newResolver(owner);
    const yes = [
      "0x01ffc9a7",
      "0x9061b923",
      PERMISSIONED_RESOLVER_INTERFACE,
      interfaceId(["initialize(address,uint256)", "setAlias(bytes,bytes)", "getAlias(bytes)"]),
      interfaceId(["supportsFeature(bytes4)"]),
      interfaceId(["multicall(bytes[])", "multicallWithNodeCheck(bytes32,bytes[])"]),
      ...[
        "ABI(bytes32,uint256)",
        "addr(bytes32)",
        "addr(bytes32,uint256)",
        "contenthash(bytes32)",
        "data(bytes32,string)",
        "hasAddr(bytes32,uint256)",
        "interfaceImplementer(bytes32,bytes4)",
        "name(bytes32)",
        "pubkey(bytes32)",
        "text(bytes32,string)",
        "recordVersions(bytes32)",
      ].map((s) => interfaceId([s])),
    ];
    for (const id of yes) expect([id, await read(r, resolverAbi, "supportsInterface", [id])]).toEqual([id, true]);
    expect(await read(r, resolverAbi, "supportsInterface", ["0xffffffff"])).toBe(false);
    expect(
      await read(r, resolverAbi, "supportsFeature", [
        keccak256(toHex("eth.ens.resolver.extended.multicall")).slice(0, 10),
      ]),
    ).toBe(true);
  });
});

describe("UniversalResolverV2 and ENSV1Resolver: viem's getEnsAddress/getEnsText over an ENSv2 tree", () => {
  const registryAbi = () => compiled.DevnetTestRegistry!.abi;
  const urAbi = () => compiled.UniversalResolverV2!.abi;
  const v1Abi = () => compiled.ENSV1Resolver!.abi;
  let ur: Address;
  let v1Resolver: Address;
  let v1Registry: Address;
  let publicResolver: Address;
  let top: Address; // PermissionedResolver of the TLD `box`
  let main: Address; // PermissionedResolver of alice.eth, and of wild.eth (a wildcard)
  let deep: Address; // PermissionedResolver of sub.alice.eth
  let v1Extended: Address; // a PermissionedResolver as an ENSv1 resolver (ext.eth)
  const A = checksummed({
    box: "0x00000000000000000000000000000000000000b0",
    alice: "0x00000000000000000000000000000000000000a1",
    aliceBase: "0x00000000000000000000000000000000000000ba",
    sub: "0x00000000000000000000000000000000000000a3",
    wild: "0x00000000000000000000000000000000000000a2",
    old: "0x00000000000000000000000000000000000000d1",
    plain: "0x00000000000000000000000000000000000000d2",
    ext: "0x00000000000000000000000000000000000000d3",
  });

  beforeAll(async () => {
    // ENSv1: the old registry, the registry with fallback, a PublicResolver; old.eth and plain.eth with records on it,
    // kid.old.eth without a resolver, ext.eth on an extended resolver that answers for a.ext.eth.
    const oldRegistry = await deploy(real.ENSRegistry);
    v1Registry = await deploy(real.ENSRegistryWithFallback, [oldRegistry]);
    publicResolver = await deploy(real.PublicResolver, [v1Registry]);
    const ens = real.ENSRegistryWithFallback.abi;
    const eth = namehash("eth");
    await send(deployer, v1Registry, ens, "setSubnodeOwner", [toHex(0, { size: 32 }), labelhash("eth"), deployer]);
    for (const label of ["old", "plain"]) {
      await send(deployer, v1Registry, ens, "setSubnodeRecord", [eth, labelhash(label), owner, publicResolver, 0n]);
    }
    await send(owner, v1Registry, ens, "setSubnodeOwner", [namehash("old.eth"), labelhash("kid"), owner]);
    const pr = real.PublicResolver.abi;
    await send(owner, publicResolver, pr, "setAddr", [namehash("old.eth"), A.old]);
    await send(owner, publicResolver, pr, "setText", [namehash("old.eth"), "url", "https://v1.old"]);
    await send(owner, publicResolver, pr, "setAddr", [namehash("plain.eth"), A.plain]);
    v1Extended = await newResolver(owner);
    await send(deployer, v1Registry, ens, "setSubnodeRecord", [eth, labelhash("ext"), owner, v1Extended, 0n]);
    await send(owner, v1Extended, resolverAbi, "setAddr", [namehash("a.ext.eth"), A.ext]);
    v1Resolver = await deploy(compiled.ENSV1Resolver!, [v1Registry]);

    // ENSv2: root → box (resolver `top`), eth → alice (resolver `main`, subregistry → sub with `deep`), wild (`main`,
    // no subregistry), old and ext (ENSV1Resolver), plain (ENSv1's PublicResolver, not extended), ghost (an account
    // without code); nobody.eth has nothing.
    const root = await deploy(compiled.DevnetTestRegistry!);
    const ethRegistry = await deploy(compiled.DevnetTestRegistry!);
    const aliceRegistry = await deploy(compiled.DevnetTestRegistry!);
    [top, main, deep] = [await newResolver(owner), await newResolver(owner), await newResolver(owner)];
    const set = (registry: Address, fn: string, args: unknown[]) => send(deployer, registry, registryAbi(), fn, args);
    await set(root, "setResolver", ["box", top]);
    await set(root, "setSubregistry", ["eth", ethRegistry]);
    await set(ethRegistry, "setParent", [root, "eth"]);
    await set(ethRegistry, "setResolver", ["alice", main]);
    await set(ethRegistry, "setSubregistry", ["alice", aliceRegistry]);
    await set(aliceRegistry, "setResolver", ["sub", deep]);
    await set(ethRegistry, "setResolver", ["wild", main]);
    await set(ethRegistry, "setResolver", ["old", v1Resolver]);
    await set(ethRegistry, "setResolver", ["ext", v1Resolver]);
    await set(ethRegistry, "setResolver", ["plain", publicResolver]);
    await set(ethRegistry, "setResolver", ["ghost", stranger]);
    await send(owner, top, resolverAbi, "setAddr", [namehash("box"), A.box]);
    await send(owner, main, resolverAbi, "setAddr", [namehash("alice.eth"), A.alice]);
    await send(owner, main, resolverAbi, "setAddr", [namehash("alice.eth"), 0x80000000n | 8453n, A.aliceBase]);
    await send(owner, main, resolverAbi, "setText", [namehash("alice.eth"), "url", "https://alice"]);
    await send(owner, main, resolverAbi, "setAddr", [namehash("any.wild.eth"), A.wild]);
    await send(owner, main, resolverAbi, "setText", [namehash("any.wild.eth"), "description", "a wildcard"]);
    await send(owner, deep, resolverAbi, "setAddr", [namehash("sub.alice.eth"), A.sub]);
    ur = await deploy(compiled.UniversalResolverV2!, [root]);
    expect(await read(ur, urAbi(), "ROOT_REGISTRY")).toBe(root);
  });

  it("findResolver walks from the root registry: the deepest resolver, the name's node, its label's offset", async () => {
    const find = (name: string) => read<[Address, Hex, bigint]>(ur, urAbi(), "findResolver", [dnsEncode(name)]);
    expect(await find("box")).toEqual([top, namehash("box"), 0n]);
    expect(await find("alice.eth")).toEqual([main, namehash("alice.eth"), 0n]);
    expect(await find("sub.alice.eth")).toEqual([deep, namehash("sub.alice.eth"), 0n]);
    // alice's registry has no resolver for `norecord`: alice.eth's, at the offset of `alice`.
    expect(await find("norecord.alice.eth")).toEqual([main, namehash("norecord.alice.eth"), 9n]);
    // wild.eth has no subregistry: the walk stops there and keeps its resolver.
    expect(await find("x.any.wild.eth")).toEqual([main, namehash("x.any.wild.eth"), 6n]);
    // No resolver anywhere: zero, at the offset of the root's terminating zero.
    expect(await find("nobody.eth")).toEqual([zeroAddress, namehash("nobody.eth"), 11n]);
    expect(await read(ur, urAbi(), "findResolver", [ROOT_NAME])).toEqual([zeroAddress, toHex(0, { size: 32 }), 0n]);
    expect(await revertOf(owner, ur, urAbi(), "findResolver", ["0x03657468"])).toMatchObject({
      errorName: "DNSDecodingFailed",
    });
  });

  it("viem getEnsAddress/getEnsText answer names 1-3 levels deep, a wildcard and the ENSv1 fallback; null without", async () => {
    const address = (name: string, coinType?: bigint) =>
      pub.getEnsAddress({ name, coinType, universalResolverAddress: ur });
    const text = (name: string, key: string) => pub.getEnsText({ name, key, universalResolverAddress: ur });
    expect(await address("box")).toBe(A.box);
    expect(await address("alice.eth")).toBe(A.alice);
    // With a coin type viem hands back the record's bytes as they are.
    expect(await address("alice.eth", 0x80000000n | 8453n)).toBe(A.aliceBase.toLowerCase());
    expect(await text("alice.eth", "url")).toBe("https://alice");
    expect(await address("sub.alice.eth")).toBe(A.sub);
    // Wildcard: wild.eth's extended resolver answers for any.wild.eth.
    expect(await address("any.wild.eth")).toBe(A.wild);
    expect(await text("any.wild.eth", "description")).toBe("a wildcard");
    expect(await address("none.wild.eth")).toBeNull();
    // Reserved with ENSV1Resolver: ENSv1's records (an immediate resolver for its own name, an extended one below).
    expect(await address("old.eth")).toBe(A.old);
    expect(await text("old.eth", "url")).toBe("https://v1.old");
    expect(await address("a.ext.eth")).toBe(A.ext);
    // ENSv1's resolver of old.eth is not extended: it does not answer for kid.old.eth (ENSIP-10).
    expect(await address("kid.old.eth")).toBeNull();
    // A resolver that is not extended, for its own name only.
    expect(await address("plain.eth")).toBe(A.plain);
    expect(await address("child.plain.eth")).toBeNull();
    // No resolver; a resolver without records; an account without code.
    expect(await address("nobody.eth")).toBeNull();
    expect(await address("x.nobody.eth")).toBeNull();
    expect(await text("nobody.eth", "url")).toBeNull();
    expect(await address("norecord.alice.eth")).toBeNull();
    expect(await address("ghost.eth")).toBeNull();
  });

  it("reverts with the real UniversalResolver errors, and answers multicalls call by call", async () => {
    const addrCall = (name: string) =>
      encodeFunctionData({ abi: resolverAbi, functionName: "addr", args: [namehash(name)] } as never);
    const resolveError = (name: string, data: Hex) =>
      revertOf(owner, ur, urAbi(), "resolveWithGateways", [dnsEncode(name), data, []]);
    expect(await resolveError("nobody.eth", addrCall("nobody.eth"))).toEqual({
      errorName: "ResolverNotFound",
      args: [dnsEncode("nobody.eth")],
    });
    expect(await resolveError("child.plain.eth", addrCall("child.plain.eth"))).toMatchObject({
      errorName: "ResolverNotFound",
    });
    expect(await resolveError("ghost.eth", addrCall("ghost.eth"))).toEqual({
      errorName: "ResolverNotContract",
      args: [dnsEncode("ghost.eth"), stranger],
    });
    const unreachable = encodeErrorResult({
      abi: v1Abi(),
      errorName: "UnreachableName",
      args: [dnsEncode("kid.old.eth")],
    });
    expect(await resolveError("kid.old.eth", addrCall("kid.old.eth"))).toEqual({
      errorName: "ResolverError",
      args: [unreachable],
    });
    // The resolver's revert comes wrapped (here its empty revert on a profile it lacks).
    expect(await resolveError("alice.eth", `0x12345678${namehash("alice.eth").slice(2)}`)).toEqual({
      errorName: "ResolverError",
      args: ["0x"],
    });

    const [single, usedResolver] = await read<[Hex, Address]>(ur, urAbi(), "resolve", [
      dnsEncode("alice.eth"),
      addrCall("alice.eth"),
    ]);
    expect(usedResolver).toBe(main);
    expect(single).toBe(encodeAbiParameters([{ type: "address" }], [A.alice]));

    const textCall = encodeFunctionData({
      abi: resolverAbi,
      functionName: "text",
      args: [namehash("old.eth"), "url"],
    } as never);
    for (const [name, calls, expected] of [
      ["alice.eth", [addrCall("alice.eth")], [A.alice]],
      ["old.eth", [addrCall("old.eth"), textCall], [A.old, "https://v1.old"]],
    ] as const) {
      const data = encodeFunctionData({ abi: resolverAbi, functionName: "multicall", args: [calls] } as never);
      const [result, resolver] = await read<[Hex, Address]>(ur, urAbi(), "resolve", [dnsEncode(name), data]);
      expect(resolver).toBe(name === "old.eth" ? v1Resolver : main);
      const [answers] = decodeAbiParameters([{ type: "bytes[]" }], result);
      expect(
        answers.map((a, i) =>
          decodeFunctionResult({
            abi: resolverAbi,
            functionName: i === 0 ? "addr" : "text",
            args: i === 0 ? [namehash(name)] : undefined,
            data: a,
          } as never),
        ),
      ).toEqual(expected);
    }
  });

  it("ENSV1Resolver: getResolver mirrors ENSv1's ENSIP-10 walk; resolve answers single calls and multicalls", async () => {
    const getResolver = (name: string) =>
      read<[Address, boolean]>(v1Resolver, v1Abi(), "getResolver", [dnsEncode(name)]);
    expect(await getResolver("old.eth")).toEqual([publicResolver, false]);
    expect((await getResolver("kid.old.eth"))[0]).toBe(publicResolver);
    expect((await getResolver("deeper.kid.old.eth"))[0]).toBe(publicResolver);
    expect(await getResolver("nothing.eth")).toEqual([zeroAddress, false]);
    expect(await read(v1Resolver, v1Abi(), "REGISTRY_V1")).toBe(v1Registry);
    expect(await read(v1Resolver, v1Abi(), "requiresOffchain", [dnsEncode("old.eth")])).toBe(false);
    for (const id of ["0x01ffc9a7", "0x9061b923", "0xc7e45d73", "0x582de3e7"]) {
      expect(await read(v1Resolver, v1Abi(), "supportsInterface", [id])).toBe(true);
    }

    const addrCall = encodeFunctionData({
      abi: resolverAbi,
      functionName: "addr",
      args: [namehash("old.eth")],
    } as never);
    expect(await read(v1Resolver, v1Abi(), "resolve", [dnsEncode("old.eth"), addrCall])).toBe(
      encodeAbiParameters([{ type: "address" }], [A.old]),
    );
    const multi = encodeFunctionData({
      abi: resolverAbi,
      functionName: "multicall",
      args: [[addrCall, `0x12345678${namehash("old.eth").slice(2)}`]],
    } as never);
    const [answers] = decodeAbiParameters(
      [{ type: "bytes[]" }],
      await read<Hex>(v1Resolver, v1Abi(), "resolve", [dnsEncode("old.eth"), multi]),
    );
    expect(answers[0]).toBe(encodeAbiParameters([{ type: "address" }], [A.old]));
    expect(answers[1]).toBe("0x"); // ENSv1's PublicResolver reverts without data on an unknown selector
    expect(await revertOf(owner, v1Resolver, v1Abi(), "resolve", [dnsEncode("nothing.eth"), addrCall])).toEqual({
      errorName: "UnreachableName",
      args: [dnsEncode("nothing.eth")],
    });
  });
});
