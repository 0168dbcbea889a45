/** An error a client caused or can act on; `status` is the HTTP status the server answers with. */
export class LabelServiceError extends Error {
  constructor(
    readonly status: 400 | 404 | 413 | 500 | 503,
    message: string,
  ) {
    super(message);
    this.name = "LabelServiceError";
  }
}

// The spec's exact messages: clients written for the peer match on them.
export const MESSAGES = {
  invalidLabelhash: "Invalid labelhash - must be a valid hex string",
  versionTooHigh: "Requested label set version is higher than available label set version",
  labelNotFound: "Label not found",
  internal: "Internal server error",
  countNotInitialized:
    "Label count not initialized. Check that the ingest command has been run and finished successfully.",
  versionWithoutId: "label_set_id is required when label_set_version is specified",
  notFoundRoute: "Not found",
  labelSetIdMismatch: (serverId: string, requestedId: string) =>
    `Label set ID mismatch: the server's label set ID is "${serverId}" but the request asked for "${requestedId}"`,
} as const;
