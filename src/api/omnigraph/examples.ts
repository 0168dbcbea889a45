import type { PlaygroundExample } from "../shared/playground";

/*
 * The questions people most often ask the Omnigraph, as the playground's examples (ours; test/omnigraph/
 * playground.test.ts validates each against the schema). The first needs no variables: it is what a first visit
 * opens with, and it answers on any index.
 */
export const OMNIGRAPH_EXAMPLES: readonly PlaygroundExample[] = [
  {
    title: "Top-level names",
    description: "The root registry and the first names in it (the TLDs), by name.",
    query: `query TopLevelNames {
  root {
    id
    contract { chainId address }
    domains(first: 10, order: { by: NAME }) {
      totalCount
      edges { node { label { interpreted } canonical { name { interpreted } } owner { address } } }
    }
  }
}`,
  },
  {
    title: "A name and its profile",
    description: "One domain by name: owner, registration, resolver, and the profile its records make.",
    query: `query NameProfile($name: InterpretedName!) {
  domain(by: { name: $name }) {
    id
    canonical { name { interpreted beautified } }
    owner { address }
    registration { start expiry expired }
    resolver { assigned { contract { chainId address } } }
    resolve {
      profile {
        description
        avatar { httpUrl }
        addresses { ethereum bitcoin }
        socials { twitter { handle } github { handle } }
      }
    }
  }
}`,
    variables: { name: "nick.eth" },
  },
  {
    title: "Subdomains, newest first, paged",
    description: "A name's subdomains ten at a time; pass the answer's endCursor as $after for the next page.",
    query: `query Subdomains($name: InterpretedName!, $after: String) {
  domain(by: { name: $name }) {
    subdomains(first: 10, after: $after, order: { by: REGISTRATION_TIMESTAMP, dir: DESC }) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          canonical { name { interpreted } }
          owner { address }
          registration { start expiry }
        }
      }
    }
  }
}`,
    variables: { name: "eth" },
  },
  {
    title: "An account's names",
    description: "The domains an address owns, by name, with when each registration ends.",
    query: `query AccountNames($address: Address!) {
  account(by: { address: $address }) {
    address
    domains(first: 20, order: { by: NAME }) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { canonical { name { interpreted } } registration { expiry } } }
    }
  }
}`,
    variables: { address: "0xb8c2c29ee19d8307cb7255e1cd9cbde883a267d5" },
  },
  {
    title: "A registry's domains",
    description: "The names a registry contract holds, picked by chain and address.",
    query: `query RegistryDomains($registry: AccountIdInput!) {
  registry(by: { contract: $registry }) {
    id
    canonical
    domains(first: 10, order: { by: NAME }) {
      totalCount
      edges { node { label { interpreted hash } canonical { name { interpreted } } } }
    }
  }
}`,
    variables: { registry: { chainId: 1, address: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e" } },
  },
  {
    title: "An account's primary names",
    description: "The name an address calls itself on each chain (reverse resolution).",
    query: `query PrimaryNames($address: Address!) {
  account(by: { address: $address }) {
    resolve {
      primaryNames(where: { chainNames: [ETHEREUM, BASE, OPTIMISM, ARBITRUM_ONE, LINEA, SCROLL] }) {
        chainName
        name { interpreted }
      }
    }
  }
}`,
    variables: { address: "0xb8c2c29ee19d8307cb7255e1cd9cbde883a267d5" },
  },
  {
    title: "A name's history",
    description: "The onchain events that touched a domain, oldest first, with their blocks and transactions.",
    query: `query NameEvents($name: InterpretedName!) {
  domain(by: { name: $name }) {
    events(first: 20) {
      totalCount
      edges { node { chainId blockNumber timestamp transactionHash address topics } }
    }
  }
}`,
    variables: { name: "nick.eth" },
  },
  {
    title: "Find names by prefix",
    description: "Domains whose name starts with some text, by name.",
    query: `query FindNames($prefix: String!) {
  domains(where: { name: { starts_with: $prefix } }, first: 20, order: { by: NAME }) {
    edges { node { canonical { name { interpreted } } owner { address } registration { expiry } } }
  }
}`,
    variables: { prefix: "nick" },
  },
];
