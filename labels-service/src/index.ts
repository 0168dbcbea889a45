// Public entry of the label healing service, for the indexer and the `npm start` orchestrator.

export { LabelServiceError, MESSAGES } from "./errors.js";
export type { DemoLabelSetOptions, DemoLabelSetResult } from "./ingest/demo-label-set.js";
export { DEMO_LABEL_SET_ID, ingestDemoLabelSet } from "./ingest/demo-label-set.js";
export type { IngestFileOptions, IngestResult, InputFormat } from "./ingest/ingest-file.js";
export { formatFromFileName, INPUT_FORMATS, ingestFile } from "./ingest/ingest-file.js";
export { ingestLabels } from "./ingest/ingest-labels.js";
export { MalformedInputError } from "./ingest/malformed-input.js";
export type { IngestProgress } from "./ingest/run-ingest.js";
export { IngestAbortedError } from "./ingest/run-ingest.js";
export type { LabelSetPin } from "./label-set.js";
export type { Labelhash } from "./labelhash.js";
export { labelhashOf, normalizeLabelhash } from "./labelhash.js";
export { createLabelsApp } from "./server/app.js";
export type { LabelsServer, StartLabelsServerOptions } from "./server/start-server.js";
export { DEFAULT_HOST, DEFAULT_PORT, startLabelsServer } from "./server/start-server.js";
export type { LabelStoreConfig } from "./store/label-store.js";
export { LabelStore, openLabelStore } from "./store/label-store.js";
export { IngestConflictError } from "./store/label-writer.js";
export { SCHEMA_VERSION } from "./store/schema.js";
