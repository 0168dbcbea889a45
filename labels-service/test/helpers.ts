import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import protobuf from "protobufjs";
import { keccak256, toBytes } from "viem";
import { type LabelsServer, startLabelsServer } from "../src/index.js";

/** keccak256 via viem: an independent implementation to check ours against. */
export const hashOf = (label: string): `0x${string}` => keccak256(toBytes(label));

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "labels-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeText(path: string, labels: string[]): string {
  writeFileSync(path, labels.join("\n") + "\n");
  return path;
}

const csvField = (s: string) => `"${s.replace(/"/g, '""')}"`;

export function writeCsv(path: string, labels: string[], withHash = false): string {
  writeFileSync(
    path,
    labels.map((l) => (withHash ? `${csvField(l)},${hashOf(l)}` : csvField(l))).join("\r\n") + "\r\n",
  );
  return path;
}

/** An .ensrainbow file written with protobufjs, so our hand-rolled reader is checked against a real encoder. */
export function writeEnsrainbow(
  path: string,
  header: { labelSetId: string; labelSetVersion: number; formatIdentifier?: string; fileFormatVersion?: number },
  records: { label: string; labelhash?: `0x${string}` }[],
): string {
  const root = new protobuf.Root();
  const Record = new protobuf.Type("RainbowRecord")
    .add(new protobuf.Field("labelhash", 1, "bytes"))
    .add(new protobuf.Field("label", 2, "string"));
  const Collection = new protobuf.Type("RainbowRecordCollection")
    .add(new protobuf.Field("format_identifier", 1, "string"))
    .add(new protobuf.Field("ensrainbow_file_format_version", 2, "uint32"))
    .add(new protobuf.Field("label_set_id", 3, "string"))
    .add(new protobuf.Field("label_set_version", 4, "uint32"));
  root.add(Record).add(Collection);
  const parts: Uint8Array[] = [
    Collection.encodeDelimited(
      Collection.create({
        format_identifier: header.formatIdentifier ?? "ensrainbow",
        ensrainbow_file_format_version: header.fileFormatVersion ?? 1,
        label_set_id: header.labelSetId,
        label_set_version: header.labelSetVersion,
      }),
    ).finish(),
  ];
  for (const r of records) {
    const labelhash = Buffer.from((r.labelhash ?? hashOf(r.label)).slice(2), "hex");
    parts.push(Record.encodeDelimited(Record.create({ labelhash, label: r.label })).finish());
  }
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

/** Escapes a label as PostgreSQL COPY text does. */
export function copyEscape(label: string): string {
  return label.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

export function writeSqlDump(path: string, rows: string[], options: { terminate?: boolean } = {}): string {
  const sql = [
    "--",
    "-- PostgreSQL database dump",
    "--",
    "SET statement_timeout = 0;",
    "CREATE TABLE public.ens_names (hash text NOT NULL, name text NOT NULL);",
    "COPY public.ens_names (hash, name) FROM stdin;",
    ...rows,
    ...(options.terminate === false
      ? []
      : ["\\.", "", "ALTER TABLE ONLY public.ens_names ADD CONSTRAINT ens_names_pkey PRIMARY KEY (hash);"]),
    "",
  ].join("\n");
  writeFileSync(path, gzipSync(sql));
  return path;
}

export const sqlRow = (label: string, labelhash = hashOf(label)) => `${labelhash}\t${copyEscape(label)}`;

export async function withServer<T>(dbPath: string, run: (server: LabelsServer) => Promise<T>): Promise<T> {
  const server = await startLabelsServer({ dbPath, port: 0 });
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

export async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

export const labelhashParam = (label: string) => hashOf(label);
