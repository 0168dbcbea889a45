export const SCALARS_SDL = /* GraphQL */ `
scalar Address

scalar BeautifiedLabel

scalar BeautifiedName

scalar BigInt

scalar BinanceAddress

scalar BitcoinAddress

scalar BitcoinCashAddress

scalar ChainId

scalar CoinType

scalar DogecoinAddress

scalar DomainId

scalar Email

scalar Hex

scalar InterfaceId

scalar InterpretedLabel

scalar InterpretedName

scalar JSON

scalar LitecoinAddress

scalar MonacoinAddress

scalar Node

scalar PermissionsId

scalar PermissionsResourceId

scalar PermissionsUserId

scalar RegistrationId

scalar RegistryId

scalar RenewalId

scalar ResolverId

scalar ResolverRecordsId

scalar RippleAddress

scalar RootstockAddress

scalar SolanaAddress

scalar TokenId
`;
