import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql";

/*
 * The Omnigraph's scalars: what each accepts as input (checked, so a bad value is a GraphQL error naming it) and how
 * each is written out. Ids are opaque strings; BigInt is a decimal string out and a string or integer in; CoinType
 * and ChainId are JSON numbers (coin types reach 2^31 and beyond, past GraphQL's Int).
 */

type Check = (value: unknown) => unknown;

function scalar(name: string, parse: Check, serialize: Check = (v) => v): GraphQLScalarType {
  const literal = (node: ValueNode): unknown => {
    if (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.BOOLEAN) {
      return node.kind === Kind.INT ? Number(node.value) : node.kind === Kind.BOOLEAN ? node.value : node.value;
    }
    throw new GraphQLError(`${name} cannot represent this value`);
  };
  return new GraphQLScalarType({
    name,
    serialize,
    parseValue: parse,
    parseLiteral: (node) => parse(node.kind === Kind.INT ? BigInt(node.value) : literal(node)),
  });
}

const fail = (name: string, value: unknown, why: string): never => {
  throw new GraphQLError(
    `Invalid ${name} ${JSON.stringify(typeof value === "bigint" ? value.toString() : value)?.slice(0, 120)}: ${why}`,
  );
};

const hexOf = (name: string, bytes?: number) => (value: unknown) => {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]*$/.test(value))
    return fail(name, value, "expected 0x-prefixed hex");
  if (bytes !== undefined && value.length !== 2 + 2 * bytes) return fail(name, value, `expected ${bytes} bytes`);
  if (bytes === undefined && value.length % 2 !== 0) return fail(name, value, "expected whole bytes");
  return value.toLowerCase();
};

const text =
  (name: string, max = 2048) =>
  (value: unknown) => {
    if (typeof value !== "string") return fail(name, value, "expected a string");
    if (value.length > max) return fail(name, value, `longer than ${max} characters`);
    return value;
  };

const bigInteger = (name: string, min: bigint, max: bigint) => (value: unknown) => {
  let n: bigint;
  try {
    if (typeof value === "bigint") n = value;
    else if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
    else if (typeof value === "string" && /^-?\d{1,78}$/.test(value)) n = BigInt(value);
    else return fail(name, value, "expected an integer");
  } catch {
    return fail(name, value, "expected an integer");
  }
  if (n < min || n > max) return fail(name, value, "out of range");
  return n;
};

const UINT256_MAX = 2n ** 256n - 1n;
const toText = (v: unknown) => (typeof v === "bigint" ? v.toString() : v);
const toNumber = (v: unknown) => (typeof v === "bigint" ? Number(v) : v);

export function omnigraphScalars(): GraphQLScalarType[] {
  const address = hexOf("Address", 20);
  const stringly = [
    "BeautifiedLabel",
    "BeautifiedName",
    "InterpretedLabel",
    "DomainId",
    "PermissionsId",
    "PermissionsResourceId",
    "PermissionsUserId",
    "RegistrationId",
    "RegistryId",
    "RenewalId",
    "ResolverId",
    "ResolverRecordsId",
    "Email",
    "BinanceAddress",
    "BitcoinAddress",
    "BitcoinCashAddress",
    "DogecoinAddress",
    "LitecoinAddress",
    "MonacoinAddress",
    "RippleAddress",
    "SolanaAddress",
  ].map((name) => scalar(name, text(name)));
  return [
    ...stringly,
    scalar("InterpretedName", text("InterpretedName", 4096)),
    scalar("Address", address),
    scalar("RootstockAddress", address),
    scalar("Hex", hexOf("Hex")),
    scalar("Node", hexOf("Node", 32)),
    scalar("InterfaceId", hexOf("InterfaceId", 4)),
    scalar("BigInt", bigInteger("BigInt", -UINT256_MAX, UINT256_MAX), toText),
    scalar("TokenId", bigInteger("TokenId", 0n, UINT256_MAX), toText),
    scalar("CoinType", bigInteger("CoinType", 0n, UINT256_MAX), toNumber),
    scalar("ChainId", (v) => Number(bigInteger("ChainId", 1n, 2n ** 53n)(v)), toNumber),
    new GraphQLScalarType({ name: "JSON" }),
  ];
}
