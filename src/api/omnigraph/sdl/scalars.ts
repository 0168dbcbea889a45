export const SCALARS_SDL = /* GraphQL */ `
"An EVM address: 0x and 40 hex digits, answered in lowercase."
scalar Address

"One label made for display: normalized, with emoji shown as their fully-qualified forms."
scalar BeautifiedLabel

"A whole name made for display, label by label as BeautifiedLabel."
scalar BeautifiedName

"A whole number of any size, as a decimal string (amounts in wei, timestamps, block numbers, token ids)."
scalar BigInt

"An address on BNB Beacon Chain, in its own text form."
scalar BinanceAddress

"A Bitcoin address, in its own text form."
scalar BitcoinAddress

"A Bitcoin Cash address, in its own text form."
scalar BitcoinCashAddress

"An EVM chain id, as a number (1 for Ethereum mainnet)."
scalar ChainId

"A SLIP-44 / ENSIP-11 coin type: which chain an address record is for (60 for Ethereum)."
scalar CoinType

"A Dogecoin address, in its own text form."
scalar DogecoinAddress

"The id of a domain: its node for ENSv1; for ENSv2 \`<chainId>-<registry>-<storageId>\`, the storage id in decimal (an earlier \`0x\` + 64 hex form is accepted as input)."
scalar DomainId

"An email address."
scalar Email

"Bytes as 0x-prefixed hexadecimal."
scalar Hex

"An ERC-165 interface id: 0x and 8 hex digits."
scalar InterfaceId

"One label as the index knows it: the normalized label, or [labelhash] when the label is unknown or not normalized."
scalar InterpretedLabel

"A whole name as the index knows it: dot-separated InterpretedLabels."
scalar InterpretedName

"Any JSON value."
scalar JSON

"A Litecoin address, in its own text form."
scalar LitecoinAddress

"A Monacoin address, in its own text form."
scalar MonacoinAddress

"A namehash (ENSIP-1): the 32-byte hash that stands for a name in the contracts."
scalar Node

"The id of a contract's permissions (its chain and address)."
scalar PermissionsId

"The id of one resource within a contract's permissions: \`<chainId>-<contract>-<resource>\`, the resource in decimal."
scalar PermissionsResourceId

"The id of one account's roles on one resource of a contract: \`<chainId>-<contract>-<resource>-<account>\`."
scalar PermissionsUserId

"The id of one registration of a domain (ENSv2: \`<domainId>-<n>\`, the domain's registrations numbered from 0)."
scalar RegistrationId

"The id of a registry: its chain and address (and node, for an ENSv1 virtual registry)."
scalar RegistryId

"The id of one renewal of a registration (ENSv2: \`<registrationId>-<n>\`, its renewals numbered from 0)."
scalar RenewalId

"The id of a resolver: its chain and address."
scalar ResolverId

"The id of the records one resolver holds for one node."
scalar ResolverRecordsId

"An XRP Ledger address, in its own text form."
scalar RippleAddress

"A Rootstock address, in its own text form: mixed case by EIP-1191 (chain id 30)."
scalar RootstockAddress

"A Solana address, in its own text form."
scalar SolanaAddress

"An ERC-721 token id, as a decimal string."
scalar TokenId
`;
