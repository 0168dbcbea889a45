import type { Abi, Address } from "viem";
import { toEventSelector } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { Ensv2ForeignTransfers } from "./ensv2-model";
import type { Ensv2Play } from "./ensv2-play";

/** Foreign transfers per registry transfer: a public chain's NFT traffic dwarfs ENS's. */
export const FOREIGN_TRANSFERS_PER_REGISTRY_TRANSFER = 100;
/**
 * At most this many: a benchmark devnet of thousands of ENSv2 names would otherwise spend minutes minting. 100× holds
 * up to 200 registry transfers (a test devnet has a few dozen).
 */
const MAX_FOREIGN_LOGS = 20_000;
/** Logs one transaction emits (about 2,600 gas each, well inside the devnet's gas per transaction). */
const LOGS_PER_TX = 1_000;
/** A batch of this many ids per TransferBatch; one in ten of the foreign logs is a batch. */
const IDS_PER_BATCH = 4;

/**
 * The other ERC-1155 contracts of a chain: one contract of no registry mints, in a few transactions of one block,
 * 100 times as many TransferSingle/TransferBatch logs as the registries emitted in the whole scenario (at most
 * MAX_FOREIGN_LOGS). Played last, when that count is known.
 */
export async function playForeignTransfers(play: Ensv2Play): Promise<Ensv2ForeignTransfers> {
  const { chain } = play;
  const artifact = loadDevnetContracts().own.DevnetERC1155Traffic;
  const { address: contract } = await chain.deploy("DevnetERC1155Traffic", artifact);
  const topics = new Set(
    (["TransferSingle", "TransferBatch"] as const).map((name) =>
      toEventSelector(artifact.abi.find((x) => x.type === "event" && x.name === name) as never),
    ),
  );
  const registries = new Set(play.registries.map((r) => r.address.toLowerCase()));
  let registryLogs = 0;
  for (const [key, n] of chain.logTally) {
    const [address, topic0] = key.split("|") as [string, `0x${string}`];
    if (registries.has(address) && topics.has(topic0)) registryLogs += n;
  }
  const logs = Math.min(MAX_FOREIGN_LOGS, registryLogs * FOREIGN_TRANSFERS_PER_REGISTRY_TRANSFER);
  const holder = chain.deployer;
  const txs = [];
  for (let first = 0; first < logs; first += LOGS_PER_TX) {
    const count = Math.min(LOGS_PER_TX, logs - first);
    const batches = Math.floor(count / 10);
    txs.push(
      Chain.call(
        chain.deployer,
        contract,
        artifact.abi as Abi,
        "mintMany",
        // Ids never repeat: each batch id counts once past the singles.
        [holder, BigInt(first * IDS_PER_BATCH), BigInt(count - batches), BigInt(batches), BigInt(IDS_PER_BATCH)],
        "DevnetERC1155Traffic.mintMany",
      ),
    );
  }
  await chain.send(txs);
  return { contract: contract.toLowerCase() as Address, logs, registryLogs };
}
