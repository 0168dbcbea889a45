import { parseAbi } from "viem";

/** The first .eth controller: one `cost`, no premium. */
export const LegacyEthRegistrarControllerAbi = parseAbi([
  "event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)",
  "event NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)",
]);

/** The 2023 .eth controller that registers through the NameWrapper. */
export const WrappedEthRegistrarControllerAbi = parseAbi([
  "event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)",
  "event NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)",
]);

/** The 2025 .eth controller: unwrapped registrations with a referrer. */
export const UnwrappedEthRegistrarControllerAbi = parseAbi([
  "event NameRegistered(string label, bytes32 indexed labelhash, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires, bytes32 referrer)",
  "event NameRenewed(string label, bytes32 indexed labelhash, uint256 cost, uint256 expires, bytes32 referrer)",
]);

/** Renews any direct .eth subname and says who referred the renewal. */
export const RenewalWithReferrerAbi = parseAbi([
  "event RenewalReferred(string label, bytes32 indexed labelHash, uint256 cost, uint256 duration, bytes32 referrer)",
]);

/** Basenames' early-access, regular and upgradeable controllers publish no price. */
export const BasenamesRegistrarControllerAbi = parseAbi([
  "event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires)",
  "event NameRenewed(string name, bytes32 indexed label, uint256 expires)",
]);

/** Lineanames' controller: priced, owner-minted and proof-of-humanity registrations. */
export const LineanamesRegistrarControllerAbi = parseAbi([
  "event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)",
  "event OwnerNameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires)",
  "event PohNameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires)",
  "event NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)",
]);
