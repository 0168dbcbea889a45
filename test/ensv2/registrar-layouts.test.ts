import { readFileSync } from "node:fs";
import pg from "pg";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  encodeDeployData,
  type Hex,
  http,
  type Log,
  labelhash,
  type PublicClient,
  pad,
  parseAbiParameters,
  toEventSelector,
  zeroAddress,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAbis } from "../../devnet/src/contracts";
import { scenarioOf } from "../../devnet/src/index";
import { compileContracts } from "../../devnet/src/solc";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import {
  indexerOptionsFor,
  type RunningIndexer,
  settledStatus,
  startIndexer,
  waitFor,
} from "../../harness/indexer-harness";

/*
 * The `.eth` registrar's NameRegistered and NameRenewed in both layouts, from the one address the namespace names:
 * the devnet's registrar (contracts-v2's source: referrer in the data) plays the scenario, then is replaced in place
 * by our build of the one deployed for sepolia-v2 (referrer indexed, `amount`; what @ensnode/datasources declares),
 * which registers and renews more names. Every log of both layouts must be priced as emitted. Last, a NameRenewed in
 * neither layout (four topics) at that address must stop the indexer with an error naming the contract and the
 * event, where it was recorded with a price read from the wrong words.
 */

const SEED = 51;
const NAMES = 1;
const YEAR = 365n * 86_400n;

interface RegistrationRow {
  transaction_hash: Hex;
  registrar: Address | null;
  duration: string | null;
  payment_token: Address | null;
  referrer: Hex | null;
  base: string | null;
  premium: string | null;
}
interface RenewalRow {
  transaction_hash: Hex;
  log_index: number;
  duration: string;
  new_expiry: string;
  payment_token: Address;
  referrer: Hex;
  base: string;
}

let env: DevnetWithLabels;
let indexer: RunningIndexer;
let client: PublicClient;
let rpcUrl: string;
let registrar: Address;
const abis = devnetAbis() as Record<string, Abi>;
const sourceAbi = abis.ETHRegistrar!;
const deployedAbi = abis.ETHRegistrarIndexedReferrer!;
const REGISTERED = toEventSelector(sourceAbi.find((x) => x.type === "event" && x.name === "NameRegistered") as never);
const RENEWED = toEventSelector(sourceAbi.find((x) => x.type === "event" && x.name === "NameRenewed") as never);
/** The registrar's price events, each with the ABI of the build that emitted it. */
const emitted: { log: Log; abi: Abi; layout: "source" | "deployed" }[] = [];

/**
 * Replaces the code at `address` with another contract's, constructed there (its immutables as a deployment there
 * would set them) and keeping the storage: the registrar's commitments, roles and oracle stay.
 */
async function replaceCode(address: Address, contract: string, args: unknown[]): Promise<void> {
  const artifact = compileContracts()[contract]!;
  const init = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never);
  const [deployer] = await rpc<Address[]>(rpcUrl, "eth_accounts");
  await rpc(rpcUrl, "anvil_setCode", [address, init]);
  const runtime = await rpc<Hex>(rpcUrl, "eth_call", [{ from: deployer, to: address, gas: "0x1c9c380" }, "latest"]);
  await rpc(rpcUrl, "anvil_setCode", [address, runtime]);
}

const registrarLogs = (logs: Log[]) =>
  logs.filter((l) => l.address.toLowerCase() === registrar && (l.topics[0] === REGISTERED || l.topics[0] === RENEWED));

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: SEED, names: NAMES });
  const manifest = env.devnet.manifest;
  const v2 = scenarioOf(manifest).ensv2;
  rpcUrl = manifest.chains[String(manifest.ensv2!.chainId)]!.rpcUrl;
  client = createPublicClient({ transport: http(rpcUrl) });
  registrar = manifest.ensv2!.contracts.ETHRegistrar!.address!.toLowerCase() as Address;

  // The scenario's registrations and renewals: the source's layout.
  const before = await client.getLogs({ address: registrar, fromBlock: 0n, toBlock: "latest" });
  for (const log of registrarLogs(before)) emitted.push({ log, abi: sourceAbi, layout: "source" });

  // The deployed build at the same address, constructed with what the devnet's registrar was constructed with.
  const read = (functionName: string) =>
    client.readContract({ address: registrar, abi: sourceAbi, functionName } as never) as Promise<unknown>;
  const ctorArgs = await Promise.all(
    [
      "REGISTRY",
      "BENEFICIARY",
      "MIN_COMMITMENT_AGE",
      "MAX_COMMITMENT_AGE",
      "MIN_REGISTER_DURATION",
      "rentPriceOracle",
    ].map(read),
  );
  await replaceCode(registrar, "ETHRegistrarIndexedReferrer", ctorArgs);

  // Two registrations (a referrer and none, USDC and DAI) and two renewals (one of a name the source build registered).
  const owners = [...new Set(v2.names.filter((n) => n.via === "registrar").map((n) => n.owner!))];
  const [usdc, dai] = ["MockUSDC", "MockDAI"].map((c) => manifest.ensv2!.contracts[c]!.address as Address);
  const wallet = (account: Address) => createWalletClient({ transport: http(rpcUrl), account });
  const send = async (from: Address, functionName: string, args: unknown[]) => {
    const hash = await wallet(from).writeContract({
      address: registrar,
      abi: deployedAbi,
      functionName,
      args,
      chain: null,
    } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(
      receipt.status,
      `${functionName} ${JSON.stringify(args, (_, v) => (typeof v === "bigint" ? String(v) : v))}`,
    ).toBe("success");
    return receipt;
  };
  const plans = [
    { label: "laterbuild", owner: owners[0]!, token: usdc!, referrer: pad("0x51", { size: 32 }) },
    { label: "referrerless", owner: owners[1 % owners.length]!, token: dai!, referrer: zeroHash },
  ].map((p) => ({ ...p, secret: pad(labelhash(p.label), { size: 32 }) }));
  for (const p of plans) {
    const commitment = (await client.readContract({
      address: registrar,
      abi: deployedAbi,
      functionName: "makeCommitment",
      args: [p.label, p.owner, p.secret, zeroAddress, zeroAddress, YEAR, p.referrer],
    })) as Hex;
    await send(p.owner, "commit", [commitment]);
  }
  await rpc(rpcUrl, "evm_increaseTime", [120]);
  await rpc(rpcUrl, "evm_mine", []);
  const receipts = [];
  for (const p of plans) {
    receipts.push(
      await send(p.owner, "register", [
        p.label,
        p.owner,
        p.secret,
        zeroAddress,
        zeroAddress,
        YEAR,
        p.token,
        p.referrer,
      ]),
    );
  }
  const older = v2.names.find((n) => n.via === "registrar" && n.status === "registered")!;
  receipts.push(await send(owners[0]!, "renew", [older.labels[0], YEAR, dai, pad("0xabcdef", { size: 32 })]));
  receipts.push(
    await send(owners[1 % owners.length]!, "renew", [plans[0]!.label, YEAR, usdc, pad("0x52", { size: 32 })]),
  );
  for (const r of receipts)
    for (const log of registrarLogs(r.logs)) emitted.push({ log, abi: deployedAbi, layout: "deployed" });

  indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["ensv2"], database: "postgres" }));
  await settledStatus(indexer, 3_000, 300_000);
}, 600_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

describe("the ENSv2 registrar's events in both layouts", () => {
  it("prices every NameRegistered and NameRenewed as emitted, referrer in the data or indexed", async () => {
    const registrations = await query<RegistrationRow>(
      `SELECT * FROM "${indexer.schema}".ensv2_registration WHERE registrar IS NOT NULL`,
    );
    const renewals = await query<RenewalRow>(`SELECT * FROM "${indexer.schema}".ensv2_renewal`);
    const events = await query<{
      transaction_hash: Hex;
      log_index: number;
      event_name: string;
      args: Record<string, unknown>;
    }>(`SELECT * FROM "${indexer.schema}".ensv2_event WHERE contract = '${registrar}'`);
    const counts = { source: { NameRegistered: 0, NameRenewed: 0 }, deployed: { NameRegistered: 0, NameRenewed: 0 } };
    for (const { log, abi, layout } of emitted) {
      expect(log.topics.length, `${layout} layout`).toBe(layout === "source" ? 2 : 3);
      const { eventName, args } = decodeEventLog({
        abi,
        topics: log.topics,
        data: log.data,
        strict: true,
      }) as unknown as {
        eventName: "NameRegistered" | "NameRenewed";
        args: Record<string, bigint | Hex | string>;
      };
      const what = `${layout} ${eventName} in ${log.transactionHash}`;
      const tx = log.transactionHash!.toLowerCase();
      if (eventName === "NameRegistered") {
        const row = registrations.find((r) => r.transaction_hash === tx);
        expect(row, what).toBeDefined();
        expect([row!.duration, row!.payment_token, row!.referrer, row!.base, row!.premium], what).toEqual([
          String(args.duration),
          String(args.paymentToken).toLowerCase(),
          String(args.referrer).toLowerCase(),
          String(args.base),
          String(args.premium),
        ]);
      } else {
        const row = renewals.find((r) => r.transaction_hash === tx && r.log_index === log.logIndex);
        expect(row, what).toBeDefined();
        expect([row!.duration, row!.new_expiry, row!.payment_token, row!.referrer, row!.base], what).toEqual([
          String(args.duration),
          String(args.newExpiry),
          String(args.paymentToken).toLowerCase(),
          String(args.referrer).toLowerCase(),
          String(layout === "source" ? args.base : args.amount),
        ]);
      }
      // ensv2_event keeps the event as its build emitted it (the deployed renewal's price is `amount`).
      const event = events.find((e) => e.transaction_hash === tx && e.log_index === log.logIndex);
      expect(event?.event_name, what).toBe(eventName);
      expect(Object.keys(event!.args).sort(), what).toEqual(Object.keys(args).sort());
      counts[layout][eventName]++;
    }
    expect(counts.source.NameRegistered).toBeGreaterThan(0);
    expect(counts.source.NameRenewed).toBeGreaterThan(0);
    expect(counts.deployed).toEqual({ NameRegistered: 2, NameRenewed: 2 });
    expect(registrations.length).toBe(counts.source.NameRegistered + counts.deployed.NameRegistered);
    expect(renewals.length).toBe(counts.source.NameRenewed + counts.deployed.NameRenewed);
    console.log(
      `registrar layouts: referrer in the data (contracts-v2 source) ${counts.source.NameRegistered} NameRegistered, ${counts.source.NameRenewed} NameRenewed; referrer indexed (sepolia-v2 deployment) ${counts.deployed.NameRegistered} NameRegistered, ${counts.deployed.NameRenewed} NameRenewed: each priced as emitted`,
    );
  });

  it("stops with an error naming the contract and the event at a log that decodes in neither layout", async () => {
    // A NameRenewed of a registered name with four topics (tokenId, paymentToken and referrer indexed).
    const renewed = emitted.find((e) => e.layout === "deployed" && e.log.topics[0] === RENEWED)!.log;
    const tokenId = renewed.topics[1]!;
    await replaceCode(registrar, "DevnetLogEmitter", []);
    const data = encodeAbiParameters(parseAbiParameters("string, uint64, uint64, uint256"), [
      "laterbuild",
      YEAR,
      2n ** 40n,
      123n,
    ]);
    const topics = [RENEWED, tokenId, pad(zeroAddress, { size: 32 }), pad("0x53", { size: 32 })];
    const from = (await rpc<Address[]>(rpcUrl, "eth_accounts"))[0]!;
    const hash = await createWalletClient({ transport: http(rpcUrl), account: from }).writeContract({
      chain: null,
      address: registrar,
      abi: abis.DevnetLogEmitter!,
      functionName: "emitLog",
      args: [topics, data],
    } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.logs.map((l) => l.topics.length)).toEqual([4]);

    const child = indexer.process.child;
    await waitFor(async () => child.exitCode !== null || child.signalCode !== null, 120_000, "the indexer to stop");
    expect(child.exitCode).not.toBe(0);
    const log = readFileSync(indexer.logFile, "utf8");
    // Ponder's line names the handler; ours, the contract, the event, the transaction and the layouts.
    expect(log).toMatch(/ERROR Error while processing event event=ensv2\/ETHRegistrar:NameRenewed/);
    const line = log
      .split("\n")
      .find((l) => l.includes(`ensv2/ETHRegistrar (${registrar}): NameRenewed in tx ${hash}`));
    expect(line, `the indexer's error in ${log.slice(-3000)}`).toBeDefined();
    expect(line).toContain("has 4 topics, a layout of neither build");
    console.log(`registrar layouts: neither layout stops the indexer: ${line!.trim()}`);
  }, 180_000);
});
