// @ensnode/datasources imports this one helper (in identifyDatasourceContracts, which nameindex never calls).
export const toNormalizedAddress = (address) => address.toLowerCase();
