import { parseAbi } from "viem";

/** ERC-721 base registrar of a managed name (.eth, base.eth, linea.eth). */
export const BaseRegistrarAbi = parseAbi([
  "event NameRegistered(uint256 indexed id, address indexed owner, uint256 expires)",
  "event NameRenewed(uint256 indexed id, uint256 expires)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function nameExpires(uint256 id) view returns (uint256)",
]);

/** Basenames' base registrar also emits a registration that carries the resolver and TTL it set. */
export const BasenamesBaseRegistrarAbi = parseAbi([
  "event NameRegistered(uint256 indexed id, address indexed owner, uint256 expires)",
  "event NameRegisteredWithRecord(uint256 indexed id, address indexed owner, uint256 expires, address resolver, uint64 ttl)",
  "event NameRenewed(uint256 indexed id, uint256 expires)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function nameExpires(uint256 id) view returns (uint256)",
]);
