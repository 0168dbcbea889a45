import { type Abi, type Address, decodeEventLog, encodeFunctionData, type Hex } from "viem";
import { Chain, type Receipt, type Tx } from "../chain";
import type { Ensv2Deployment } from "../deploy/ensv2";
import { ALL_ROLES } from "../ensv2-roles";
import type { ScenarioContext } from "./context";
import type { Ensv2FallbackFacts, Ensv2NameFacts, Ensv2RegistryFacts, Ensv2RoleChange } from "./ensv2-model";

/** The scenario's view of the ENSv2 tree while it plays; turned into `Ensv2Scenario` at the end. */
export class Ensv2Play {
  readonly names: Ensv2NameFacts[] = [];
  readonly registries: Ensv2RegistryFacts[] = [];
  readonly resolvers = new Map<Address, Address>();
  readonly roleChanges: Ensv2RoleChange[] = [];
  readonly v1Fallbacks: Ensv2FallbackFacts[] = [];
  private salt = 0n;

  constructor(
    readonly ctx: ScenarioContext,
    readonly d: Ensv2Deployment,
  ) {}

  get chain(): Chain {
    return this.ctx.chain;
  }

  address(name: keyof Ensv2Deployment["contracts"]): Address {
    return this.d.contracts[name].address;
  }

  tx(from: Address, to: Address, contract: string, fn: string, args: unknown[]): Tx {
    return Chain.call(from, to, this.d.abis[contract] as Abi, fn, args, `ENSv2 ${contract}.${fn}`);
  }

  async now(): Promise<number> {
    return this.chain.latestTimestamp();
  }

  /** Deploys a proxy of `implementation` through the VerifiableFactory, initialized for `admin` with every role. */
  async deployProxy(admin: Address, implementation: Address, abiOf: string): Promise<Address> {
    this.salt += 1n;
    const init = encodeFunctionData({
      abi: this.d.abis[abiOf] as Abi,
      functionName: "initialize",
      args: [admin, ALL_ROLES],
    });
    const [receipt] = await this.chain.send([
      this.tx(admin, this.address("VerifiableFactory"), "VerifiableFactory", "deployProxy", [
        implementation,
        this.salt,
        init,
      ]),
    ]);
    const [deployed] = this.eventArgs<{ proxyAddress: Address }>(receipt!, "VerifiableFactory", "ProxyDeployed");
    if (!deployed) throw new Error("ENSv2 VerifiableFactory.deployProxy emitted no ProxyDeployed");
    return deployed.proxyAddress.toLowerCase() as Address;
  }

  eventArgs<T>(receipt: Receipt, contract: string, eventName: string): T[] {
    const abi = this.d.abis[contract] as Abi;
    const out: T[] = [];
    for (const log of receipt.logs) {
      try {
        const ev = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
        if (ev.eventName === eventName) out.push(ev.args as T);
      } catch {
        // another contract's event
      }
    }
    return out;
  }

  addName(facts: Omit<Ensv2NameFacts, "tokenId" | "regenerations">): Ensv2NameFacts {
    const f: Ensv2NameFacts = { ...facts, tokenId: "0", regenerations: 0 };
    this.names.push(f);
    return f;
  }

  registryOf(address: Address): Ensv2RegistryFacts {
    const r = this.registries.find((x) => x.address === address);
    if (!r) throw new Error(`unknown ENSv2 registry ${address}`);
    return r;
  }
}
