import {
  buildASTSchema,
  defaultFieldResolver,
  type GraphQLFieldResolver,
  GraphQLInterfaceType,
  type GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  parse,
} from "graphql";
import { emptyConnection } from "./cursor";
import { eventResolvers } from "./events";
import { accountResolvers } from "./resolvers/account";
import { domainResolvers } from "./resolvers/domain";
import { ensv2DomainResolvers } from "./resolvers/ensv2-domain";
import { ensv2RegistrationResolvers } from "./resolvers/ensv2-registration";
import { ensv2RegistryResolvers } from "./resolvers/ensv2-registry";
import { nameReferenceResolvers } from "./resolvers/name-reference";
import { permissionsResolvers, permissionsResourceResolvers, permissionsUserResolvers } from "./resolvers/permissions";
import { queryResolvers } from "./resolvers/query";
import { registrationResolvers } from "./resolvers/registration";
import { registryResolvers } from "./resolvers/registry";
import { renewalResolvers } from "./resolvers/renewal";
import {
  forwardResolveResolvers,
  primaryNameRecordResolvers,
  resolvedRecordsResolvers,
  reverseResolveResolvers,
} from "./resolvers/resolution";
import { resolverResolvers } from "./resolvers/resolver";
import { unindexedDomainResolvers } from "./resolvers/unindexed-domain";
import { omnigraphScalars } from "./scalars";
import { OMNIGRAPH_SDL } from "./sdl";
import { describeRepeatedParts } from "./sdl/describe";

type Resolvers = Record<string, GraphQLFieldResolver<never, never, never>>;

/**
 * Field resolvers by type; an interface's resolvers serve each of its implementations. Typed loosely on purpose: each
 * object's own signatures are checked where it is written, and graphql-js hands every resolver what the SDL says.
 */
const RESOLVERS: Record<string, Resolvers> = {
  Query: queryResolvers,
  Domain: domainResolvers,
  Registry: registryResolvers,
  Registration: registrationResolvers,
  Account: accountResolvers,
  NameReference: nameReferenceResolvers,
  Resolver: resolverResolvers,
  Event: eventResolvers,
  ForwardResolve: forwardResolveResolvers,
  ResolvedRecords: resolvedRecordsResolvers,
  ReverseResolve: reverseResolveResolvers,
  PrimaryNameRecord: primaryNameRecordResolvers,
  // ENSv2's objects have their own (every field: none falls back to the ENSv1 interface resolvers).
  ENSv2Domain: ensv2DomainResolvers,
  // A name the index does not hold, reached through a wildcard resolver: every field its own too.
  UnindexedDomain: unindexedDomainResolvers,
  ENSv2Registry: ensv2RegistryResolvers,
  ENSv2RegistryRegistration: ensv2RegistrationResolvers,
  ENSv2RegistryReservation: ensv2RegistrationResolvers,
  Renewal: renewalResolvers,
  Permissions: permissionsResolvers,
  PermissionsResource: permissionsResourceResolvers,
  PermissionsUser: permissionsUserResolvers,
};

/** What the ENSv1 objects implement: the interface whose resolvers they use. */
const IMPLEMENTS: Record<string, string> = {
  ENSv1Domain: "Domain",
  ENSv2Domain: "Domain",
  ENSv1Registry: "Registry",
  ENSv1VirtualRegistry: "Registry",
  ENSv2Registry: "Registry",
  BaseRegistrarRegistration: "Registration",
  NameWrapperRegistration: "Registration",
  ThreeDNSRegistration: "Registration",
  ENSv2RegistryRegistration: "Registration",
  ENSv2RegistryReservation: "Registration",
};

/**
 * The Omnigraph schema: the SDL (sdl/) with our scalars and resolvers attached. A connection field no resolver
 * answers (EFP and the like: not indexed here) answers an empty connection; any other such field reads its model's
 * property of that name (null when there is none).
 */
export function buildOmnigraphSchema(): GraphQLSchema {
  const schema = buildASTSchema(parse(OMNIGRAPH_SDL), { assumeValidSDL: false });
  describeRepeatedParts(schema);
  for (const custom of omnigraphScalars()) {
    const target = schema.getType(custom.name);
    if (!(target instanceof GraphQLScalarType)) throw new Error(`scalar ${custom.name} is not in the SDL`);
    Object.assign(target, {
      serialize: custom.serialize,
      parseValue: custom.parseValue,
      parseLiteral: custom.parseLiteral,
    });
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (type instanceof GraphQLInterfaceType) {
      type.resolveType = (value: { __typename?: string }) => value.__typename;
      continue;
    }
    if (!isObjectType(type)) continue;
    const own = RESOLVERS[type.name] ?? {};
    const inherited = RESOLVERS[IMPLEMENTS[type.name] ?? ""] ?? {};
    for (const field of Object.values((type as GraphQLObjectType).getFields())) {
      const resolve = own[field.name] ?? inherited[field.name];
      if (resolve) field.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
      else if (
        getNamedType(field.type).name.endsWith("Connection") &&
        !(type.name in RESOLVERS) &&
        !(type.name in IMPLEMENTS)
      ) {
        field.resolve = () => emptyConnection();
      } else {
        // graphql-js's own default, explicit: the compiled executor (compiled.ts) then calls a field that holds a
        // function and awaits one that holds a promise, as graphql-js does, instead of reading the property.
        field.resolve = defaultFieldResolver;
      }
    }
  }
  return schema;
}
