import { customType } from "drizzle-orm/pg-core";
import type { Hex } from "viem";

/*
 * A column that handlers and the row cache see as a `0x` hex string and the database stores as `bytea`: half the
 * bytes of Ponder's `hex` column (text), for tables with a row per log. PostgreSQL's driver hands back a Buffer,
 * PGlite's a Uint8Array.
 */

const hexOf = (bytes: Uint8Array): Hex =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;

export const hexBytes = customType<{ data: Hex; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (hex) => Buffer.from(hex.slice(2), "hex"),
  fromDriver: (bytes) => hexOf(bytes),
});

/** A list of 32-byte words (a log's topics) as the one hex string `hexBytes` stores, and back. */
export const joinWords = (words: readonly Hex[]): Hex => `0x${words.map((w) => w.slice(2)).join("")}`;
export const splitWords = (joined: string): Hex[] =>
  (joined.slice(2).match(/.{64}/g) ?? []).map((w) => `0x${w}` as Hex);
