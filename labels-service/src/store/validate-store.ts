import { isUtf8 } from "node:buffer";
import Database from "better-sqlite3";
import { keccak256Into } from "../keccak256.mjs";
import { bytesToLabelhash } from "../labelhash.js";
import { readinessOf } from "./readiness.js";
import { readMeta } from "./schema.js";

export interface ValidationReport {
  ok: boolean;
  records: number;
  problems: string[];
}

// Enough examples to act on without flooding the terminal when a whole file is bad.
const MAX_REPORTED = 20;

/** Reads every record: its labelhash must be keccak256(label), the label UTF-8, and the stored count exact. */
export function validateStore(dbPath: string, onProgress?: (records: number) => void): ValidationReport {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const readiness = readinessOf(readMeta(db));
    if (!readiness.ready) return { ok: false, records: 0, problems: [readiness.reason] };
    const problems: string[] = [];
    let bad = 0;
    const note = (problem: string) => {
      bad++;
      if (problems.length < MAX_REPORTED) problems.push(problem);
    };
    const hash = Buffer.alloc(32);
    let records = 0;
    const rows = db.prepare("SELECT labelhash, label, version FROM labels").raw().iterate() as IterableIterator<
      [Buffer, Buffer, number]
    >;
    for (const [labelhash, label, version] of rows) {
      records++;
      if (records % 1_000_000 === 0) onProgress?.(records);
      keccak256Into(label, hash);
      if (!hash.equals(labelhash)) note(`${bytesToLabelhash(labelhash)}: not keccak256 of its label`);
      if (!isUtf8(label)) note(`${bytesToLabelhash(labelhash)}: label is not valid UTF-8`);
      if (version > readiness.highestVersion)
        note(`${bytesToLabelhash(labelhash)}: version ${version} above the highest ${readiness.highestVersion}`);
    }
    if (records !== readiness.recordsCount) {
      bad++;
      problems.push(`stored count is ${readiness.recordsCount} but the database holds ${records} records`);
    }
    if (bad > problems.length) problems.push(`... and ${bad - problems.length} more`);
    return { ok: bad === 0, records, problems };
  } finally {
    db.close();
  }
}
