/**
 * ENSv2 role bits (EnhancedAccessControl: one nybble per role, the admin of role bit `b` is bit `b + 128`), the values
 * the real registries, registrar and resolver use and our devnet contracts (devnet/contracts) share, and the bitmaps
 * a deployment grants (the same as ENS's own deployment grants).
 */
const admin = (role: bigint) => role << 128n;

/** EACBaseRolesLib.ALL_ROLES: bit 0 of every nybble, every role and every admin role. */
export const ALL_ROLES = BigInt(`0x${"1".repeat(64)}`);

export const REGISTRY_ROLES = {
  REGISTRAR: 1n << 0n,
  REGISTER_RESERVED: 1n << 4n,
  SET_PARENT: 1n << 8n,
  UNREGISTER: 1n << 12n,
  RENEW: 1n << 16n,
  SET_SUBREGISTRY: 1n << 20n,
  SET_RESOLVER: 1n << 24n,
  /** Only the admin bit exists: holding it lets the token holder transfer the token. */
  CAN_TRANSFER_ADMIN: admin(1n << 28n),
  UPGRADE: 1n << 124n,
} as const;

export const RESOLVER_ROLES = {
  SET_ADDR: 1n << 0n,
  SET_TEXT: 1n << 4n,
  SET_CONTENTHASH: 1n << 8n,
  SET_PUBKEY: 1n << 12n,
  SET_ABI: 1n << 16n,
  SET_INTERFACE: 1n << 20n,
  SET_NAME: 1n << 24n,
  /** At the root only. */
  SET_ALIAS: 1n << 28n,
  CLEAR: 1n << 32n,
  SET_DATA: 1n << 36n,
} as const;

const R = REGISTRY_ROLES;

export const DEPLOYMENT_ROLES = {
  ROOT_REGISTRY_ROOT:
    R.REGISTRAR |
    admin(R.REGISTRAR) |
    R.REGISTER_RESERVED |
    admin(R.REGISTER_RESERVED) |
    R.SET_PARENT |
    admin(R.SET_PARENT) |
    R.RENEW |
    admin(R.RENEW),
  ETH_TOKEN: R.SET_SUBREGISTRY | admin(R.SET_SUBREGISTRY) | R.SET_RESOLVER | admin(R.SET_RESOLVER),
  ETH_REGISTRY_ROOT:
    admin(R.REGISTRAR) | admin(R.REGISTER_RESERVED) | R.SET_PARENT | admin(R.SET_PARENT) | admin(R.RENEW),
  ETH_REGISTRAR_ROOT: R.REGISTRAR | R.RENEW,
  MIGRATION_CONTROLLER_ROOT: R.REGISTER_RESERVED,
} as const;

/** ETHRegistrar's REGISTRATION_ROLE_BITMAP: what a registrant gets on its token. */
export const REGISTRATION_ROLE_BITMAP =
  R.SET_SUBREGISTRY | admin(R.SET_SUBREGISTRY) | R.SET_RESOLVER | admin(R.SET_RESOLVER) | R.CAN_TRANSFER_ADMIN;

/** IPermissionedRegistry.Status. */
export const STATUS = { AVAILABLE: 0, RESERVED: 1, REGISTERED: 2 } as const;

export const MAX_EXPIRY = (1n << 64n) - 1n;
