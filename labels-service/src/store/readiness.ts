import { SCHEMA_VERSION, type StoreMeta } from "./schema.js";

/** A store serves only a completed ingest; anything else is "not ready", with the reason a person can act on. */
export type Readiness =
  | { ready: true; labelSetId: string; highestVersion: number; recordsCount: number; schemaVersion: number }
  | { ready: false; reason: string };

export function readinessOf(meta: StoreMeta): Readiness {
  if (meta.schemaVersion !== null && meta.schemaVersion !== SCHEMA_VERSION) {
    return {
      ready: false,
      reason: `Label database has schema version ${meta.schemaVersion}; this service reads ${SCHEMA_VERSION}`,
    };
  }
  switch (meta.ingestState) {
    case null:
      return { ready: false, reason: "Label database is not ready: no label set has been ingested yet" };
    case "ingesting":
      return {
        ready: false,
        reason: "Label database is not ready: the first ingest is in progress or was interrupted",
      };
    case "failed":
      return {
        ready: false,
        reason: "Label database is not ready: the first ingest failed; run the ingest command again",
      };
    case "ready":
      break;
    default:
      return { ready: false, reason: `Label database is marked unfinished (state "${meta.ingestState}")` };
  }
  if (meta.labelSetId === null || meta.highestVersion === null || meta.recordsCount === null) {
    return { ready: false, reason: "Label database is marked unfinished: its metadata is incomplete" };
  }
  return {
    ready: true,
    labelSetId: meta.labelSetId,
    highestVersion: meta.highestVersion,
    recordsCount: meta.recordsCount,
    schemaVersion: SCHEMA_VERSION,
  };
}
