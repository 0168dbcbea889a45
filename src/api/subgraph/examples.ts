import type { PlaygroundExample } from "../shared/playground";

/*
 * The playground's examples for /subgraph: The Graph's query shape over the ENS subgraph's entities (ours;
 * test/subgraph-api/http.test.ts validates each against the schema). The first needs no variables.
 */
export const SUBGRAPH_EXAMPLES: readonly PlaygroundExample[] = [
  {
    title: "Newest domains",
    description: "The indexed head (_meta) and the ten domains created last.",
    query: `{
  _meta { block { number timestamp hash } deployment hasIndexingErrors }
  domains(first: 10, orderBy: createdAt, orderDirection: desc) {
    id
    name
    owner { id }
    expiryDate
  }
}`,
  },
  {
    title: "A domain by name",
    description: "One domain with its owner, resolver, registration and subdomain count.",
    query: `query Domain($name: String!) {
  domains(where: { name: $name }) {
    id
    name
    labelhash
    owner { id }
    resolver { address texts coinTypes }
    registration { registrationDate expiryDate registrant { id } }
    subdomainCount
  }
}`,
    variables: { name: "nick.eth" },
  },
  {
    title: "An account's domains",
    description: "The domains an address owns in the registry, by name.",
    query: `query AccountDomains($owner: String!) {
  domains(first: 100, where: { owner: $owner }, orderBy: name) {
    name
    expiryDate
  }
}`,
    variables: { owner: "0xb8c2c29ee19d8307cb7255e1cd9cbde883a267d5" },
  },
];
