import { beforeAll, describe, expect, it } from "vitest";
import {
  loadReferenceNamespace,
  loadTheirNamespace,
  type PublishedNamespaceName,
  REFERENCE_PACKAGE,
  type ReferenceNamespace,
  type TheirNamespace,
} from "../../harness/mainnet-chains/reference-datasources";
import { loadNamespace } from "../../src/namespaces";
import { PLUGINS } from "../../src/plugins";
import {
  anyAddressResolverFor,
  contractsOnlyOurs,
  eventDifferences,
  placementDifferences,
  referenceOmissions,
} from "../src/namespace-diff";

/*
 * Our mainnet, sepolia and sepolia-v2 namespaces (code and src/namespaces/datasources.json) against @ensnode/datasources, without chains: same chains, addresses and
 * start blocks; our plugins' event signatures present in the reference's ABIs; and the reference's contracts we leave
 * out limited to the ones below. docs/maintainers.md ("Namespace files against @ensnode/datasources") explains each.
 */

/** Why a reference contract is left out. The first two are checked: an any-address Resolver of ours must see it. */
type Why =
  // A resolver on a chain whose resolvers we match at any address: listing it would add nothing.
  | "resolver"
  // An L1 resolver answering an L2's (or 3DNS's) names by CCIP-Read: we route those names to that registry itself.
  | "l1Bridge"
  // Ethereum Follow Protocol lists: not name data.
  | "efp"
  // Listed at the zero address: the deployment has no such contract (sepolia-v2's redeployed ENSv1 has no old registry).
  | "zeroAddress"
  // Any contract's EnhancedAccessControl events: our any-address ensv2 Registry has EACRolesChanged in its ABI.
  | "ensv2AnyAddress";

const RR_ROOT_RESOLVERS = (names: string[]): Record<string, Why> =>
  Object.fromEntries(names.map((n) => [`rrRoot/${n}`, "resolver"]));

const KNOWN_OMISSIONS: Record<PublishedNamespaceName, Record<string, Why>> = {
  mainnet: {
    "ensroot/BasenamesL1Resolver": "l1Bridge",
    "ensroot/LineanamesL1Resolver": "l1Bridge",
    "ensroot/DotBoxL1Resolver": "l1Bridge",
    "ensroot/ArgentResolver": "resolver",
    "ensroot/LoopringResolver": "resolver",
    "basenames/L2Resolver1": "resolver",
    "basenames/L2Resolver2": "resolver",
    "lineanames/DefaultPublicResolver": "resolver",
    ...RR_ROOT_RESOLVERS([
      "DefaultReverseResolver1",
      "DefaultReverseResolver2",
      "DefaultReverseResolver3",
      "DefaultPublicResolver0",
      "DefaultPublicResolver1",
      "DefaultPublicResolver2",
      "DefaultPublicResolver3",
      "DefaultPublicResolver4",
      "DefaultPublicResolver5",
      "BaseReverseResolver",
      "LineaReverseResolver",
      "OptimismReverseResolver",
      "ArbitrumReverseResolver",
      "ScrollReverseResolver",
    ]),
    "efpBase/ListRegistry": "efp",
    "efpBase/AccountMetadata": "efp",
    "efpBase/ListRecords": "efp",
    "efpOptimism/ListRecords": "efp",
    "efpEthereum/ListRecords": "efp",
  },
  sepolia: {
    "ensroot/BasenamesL1Resolver": "l1Bridge",
    "ensroot/LineanamesL1Resolver": "l1Bridge",
    ...RR_ROOT_RESOLVERS([
      "DefaultReverseResolver1",
      "DefaultReverseResolver2",
      "DefaultReverseResolver3",
      "DefaultPublicResolver3",
      "DefaultPublicResolver4",
      "DefaultPublicResolver5",
      "BaseReverseResolver",
      "LineaReverseResolver",
      "OptimismReverseResolver",
      "ArbitrumReverseResolver",
      "ScrollReverseResolver",
    ]),
  },
  "sepolia-v2": {
    "ensroot/ENSv1RegistryOld": "zeroAddress",
    "ENSv2Root/Resolver": "resolver",
    "ENSv2Root/EnhancedAccessControl": "ensv2AnyAddress",
    ...RR_ROOT_RESOLVERS([
      "DefaultPublicResolver5",
      "BaseReverseResolver",
      "LineaReverseResolver",
      "OptimismReverseResolver",
      "ArbitrumReverseResolver",
      "ScrollReverseResolver",
    ]),
  },
};

// Basenames' three controllers share one ABI and one handler; the early-access one only registers (its source has
// no NameRenewed), so that filter never matches there.
const EA_RENEWED = "basenames/EARegistrarController: NameRenewed(string,bytes32 indexed,uint256)";
// The package gives sepolia's L2 reverse registrars its resolver ABI; mainnet's entry for the same contract
// (ENSIP-19 L2ReverseRegistrar) has NameForAddrChanged, which is what it emits.
const SEPOLIA_L2_REVERSE = ["reverseBase", "reverseLinea", "reverseOptimism", "reverseArbitrum", "reverseScroll"].map(
  (ds) => `${ds}/L2ReverseRegistrar: NameForAddrChanged(address indexed,string)`,
);

// sepolia-v2's ETHRegistrar is a later contracts-v2 build than the public source (5677359d): its referrer is indexed in
// NameRegistered and NameRenewed, same topic 0, other layout. Ponder gets the source's layout; the handlers decode
// each log in the layout its topic count names (docs/ensv2.md, "Two builds of the registrar").
const SEPOLIA_V2_ETH_REGISTRAR = [
  "NameRegistered(uint256 indexed,string,address,address,address,uint64,address,bytes32,uint256,uint256)",
  "NameRenewed(uint256 indexed,string,uint64,uint64,address,bytes32,uint256)",
].map((sig) => `ensv2/ETHRegistrar: ${sig}`);

// ENSv2's PermissionedResolver sets aliases (contracts-v2 5677359d, and our devnet's); /api/resolve follows them (docs/api.md, "ENSv2
// names"). Our root-chain resolvers at any address listen for it; the reference's resolver ABI has no such event.
const ALIAS_CHANGED = "ensroot/Resolver: AliasChanged(bytes indexed,bytes indexed,bytes,bytes)";

/** Events our ABIs declare that the reference's ABI of the same contract lacks, each explained above. */
const KNOWN_EVENT_DIFFERENCES: Record<PublishedNamespaceName, string[]> = {
  mainnet: [EA_RENEWED, ALIAS_CHANGED],
  sepolia: [EA_RENEWED, ...SEPOLIA_L2_REVERSE, ALIAS_CHANGED],
  "sepolia-v2": [...SEPOLIA_V2_ETH_REGISTRAR, ALIAS_CHANGED],
};

const sorted = (xs: string[]) => [...xs].sort();

describe.each(["mainnet", "sepolia", "sepolia-v2"] as const)(
  `%s namespace against ${REFERENCE_PACKAGE.name}@${REFERENCE_PACKAGE.version}`,
  (name) => {
    const ours = loadNamespace(name, { devnetManifestPath: "(unused)" });
    let reference: ReferenceNamespace;
    let theirs: TheirNamespace;
    beforeAll(async () => {
      reference = await loadReferenceNamespace(name);
      theirs = await loadTheirNamespace(name);
    });

    it("puts every contract the reference lists on its chain, address and start block", () => {
      expect(placementDifferences(ours, reference).map((d) => d.detail)).toEqual([]);
    });

    it("has no contract the reference lacks", () => {
      expect(contractsOnlyOurs(ours, reference)).toEqual([]);
    });

    it("declares only events whose full signature the reference's ABI has, apart from the known differences", () => {
      const differences = eventDifferences(ours, reference, Object.values(PLUGINS));
      const details = differences.map((d) => d.detail).join("\n");
      expect(sorted(differences.map((d) => d.key)), `event differences:\n${details}`).toEqual(
        sorted(KNOWN_EVENT_DIFFERENCES[name]),
      );
    });

    it("leaves out only the reference's contracts in the allow-list", () => {
      const omitted = referenceOmissions(ours, theirs);
      const allowed = Object.keys(KNOWN_OMISSIONS[name]);
      const unexplained = omitted.filter((n) => !allowed.includes(n));
      const stale = allowed.filter((n) => !omitted.includes(n));
      const hint =
        "index an unexplained contract, or add it to KNOWN_OMISSIONS and docs/maintainers.md; drop stale entries";
      expect({ unexplained, stale }, hint).toEqual({ unexplained: [], stale: [] });
    });

    it("sees every left-out resolver through one of our any-address Resolvers", () => {
      const resolvers = Object.entries(KNOWN_OMISSIONS[name]).filter(
        ([, why]) => why === "resolver" || why === "l1Bridge",
      );
      const unseen = resolvers.filter(([n]) => !anyAddressResolverFor(ours, theirs, n)).map(([n]) => n);
      expect(unseen, "left out as a resolver, but no Resolver of ours matches its chain from its start block").toEqual(
        [],
      );
    });

    it("leaves out a zero-address contract only where the reference lists the zero address", () => {
      const listed = Object.entries(KNOWN_OMISSIONS[name]).filter(([, why]) => why === "zeroAddress");
      const notZero = listed.filter(([n]) => {
        const [ds, contract] = n.split("/");
        return theirs[ds!]?.contracts[contract!]?.address !== `0x${"0".repeat(40)}`;
      });
      expect(notZero.map(([n]) => n)).toEqual([]);
    });

    it("sees every left-out EnhancedAccessControl through our any-address ensv2 Registry", () => {
      const listed = Object.entries(KNOWN_OMISSIONS[name]).filter(([, why]) => why === "ensv2AnyAddress");
      const registry = ours.datasources.ensv2?.contracts.Registry;
      const unseen = listed.filter(([n]) => {
        const [ds, contract] = n.split("/");
        const c = theirs[ds!]?.contracts[contract!];
        return (
          !c ||
          !registry ||
          registry.address !== undefined ||
          ours.datasources.ensv2!.chain.id !== theirs[ds!]!.chain.id ||
          registry.startBlock > c.startBlock
        );
      });
      expect(unseen.map(([n]) => n)).toEqual([]);
    });
  },
);
