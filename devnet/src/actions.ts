import { type Abi, type Address, decodeEventLog, type Hex, toEventSelector } from "viem";
import type { Chain, Log } from "./chain";
import { devnetAbis, MANIFEST_CONTRACT_SOURCES } from "./contracts";

/** One registration or renewal as the registrars tests will compare with the index: the registrar event plus the
 * controller events of the same label in the same transaction. */
export interface RegistrarActionFact {
  chainId: number;
  /** e.g. `ensroot/BaseRegistrar`. */
  registrar: string;
  type: "registration" | "renewal";
  labelhash: Hex;
  /** New expiry (registrar seconds, no grace period). */
  expires: string;
  blockNumber: number;
  transactionHash: Hex;
  /** Log index of the registrar event. */
  logIndex: number;
  /** Controller events of the same label in the same transaction, in log order. */
  controllerEvents: {
    contract: string;
    event: string;
    logIndex: number;
    label?: string;
    baseCost?: string;
    premium?: string;
    cost?: string;
    referrer?: Hex;
    duration?: string;
  }[];
}

const REGISTRAR_EVENTS = ["NameRegistered", "NameRegisteredWithRecord", "NameRenewed"];
const CONTROLLER_EVENTS = [
  "NameRegistered",
  "NameRenewed",
  "OwnerNameRegistered",
  "PohNameRegistered",
  "RenewalReferred",
];

interface Source {
  contract: string;
  address: Address;
  abi: Abi;
}

function abiOf(ds: string, contract: string): Abi {
  const abis = devnetAbis() as Record<string, Abi>;
  return MANIFEST_CONTRACT_SOURCES[ds][contract].flatMap((name) => abis[name]) as Abi;
}

/** The topic0s to keep while the scenario plays (set on every chain before it starts). */
export function actionTopics(): Set<Hex> {
  const topics = new Set<Hex>();
  for (const [ds, contracts] of Object.entries(MANIFEST_CONTRACT_SOURCES)) {
    for (const contract of Object.keys(contracts)) {
      for (const item of abiOf(ds, contract)) {
        if (item.type === "event" && [...REGISTRAR_EVENTS, ...CONTROLLER_EVENTS].includes(item.name))
          topics.add(toEventSelector(item));
      }
    }
  }
  return topics;
}

/** Builds the registrar actions of one registrar from the logs its chain kept. */
export function registrarActions(chain: Chain, registrar: Source, controllers: Source[]): RegistrarActionFact[] {
  const byTx = new Map<Hex, Log[]>();
  for (const log of chain.keptLogs) {
    const list = byTx.get(log.transactionHash) ?? [];
    list.push(log);
    byTx.set(log.transactionHash, list);
  }
  const actions: RegistrarActionFact[] = [];
  for (const log of chain.keptLogs) {
    if (log.address.toLowerCase() !== registrar.address) continue;
    const ev = decodeEventLog({
      abi: registrar.abi,
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
    }) as unknown as {
      eventName: string;
      args: { id: bigint; expires: bigint };
    };
    if (!REGISTRAR_EVENTS.includes(ev.eventName)) continue;
    const labelhash = `0x${ev.args.id.toString(16).padStart(64, "0")}` as Hex;
    const controllerEvents: RegistrarActionFact["controllerEvents"] = [];
    for (const other of byTx.get(log.transactionHash) ?? []) {
      const source = controllers.find((c) => c.address === other.address.toLowerCase());
      if (!source) continue;
      const cev = decodeEventLog({
        abi: source.abi,
        data: other.data,
        topics: other.topics as [Hex, ...Hex[]],
      }) as unknown as {
        eventName: string;
        args: Record<string, unknown>;
      };
      if (!CONTROLLER_EVENTS.includes(cev.eventName)) continue;
      const a = cev.args;
      // The older controllers call the hash `label` (and the string `name`); the 2025 ones `labelhash`/`labelHash`.
      const newStyle = a.labelhash !== undefined || a.labelHash !== undefined;
      const eventLabelhash = (newStyle ? (a.labelhash ?? a.labelHash) : a.label) as Hex;
      if (eventLabelhash?.toLowerCase() !== labelhash) continue;
      const str = (v: unknown) => (typeof v === "bigint" ? v.toString() : undefined);
      controllerEvents.push({
        contract: source.contract,
        event: cev.eventName,
        logIndex: Number(other.logIndex),
        label: (newStyle ? a.label : a.name) as string,
        baseCost: str(a.baseCost),
        premium: str(a.premium),
        cost: str(a.cost),
        referrer: a.referrer as Hex | undefined,
        duration: str(a.duration),
      });
    }
    actions.push({
      chainId: chain.chainId,
      registrar: registrar.contract,
      type: ev.eventName === "NameRenewed" ? "renewal" : "registration",
      labelhash,
      expires: ev.args.expires.toString(),
      blockNumber: Number(log.blockNumber),
      transactionHash: log.transactionHash,
      logIndex: Number(log.logIndex),
      controllerEvents: controllerEvents.sort((x, y) => x.logIndex - y.logIndex),
    });
  }
  return actions;
}

/** Source descriptors for a manifest datasource's contracts. */
export function source(ds: string, contract: string, address: Address): Source {
  return { contract: `${ds}/${contract}`, address: address.toLowerCase() as Address, abi: abiOf(ds, contract) };
}
