// Worker thread of the ingest: hashes batches of labels (one arena + offsets) and sends them back.
import { parentPort } from "node:worker_threads";
import { keccak256Into } from "../keccak256.mjs";

parentPort.on("message", ({ id, labels, offsets, count }) => {
  const arena = new Uint8Array(labels);
  const bounds = new Uint32Array(offsets);
  const hashes = new Uint8Array(count * 32);
  for (let i = 0; i < count; i++) keccak256Into(arena.subarray(bounds[i], bounds[i + 1]), hashes, i * 32);
  parentPort.postMessage({ id, labels, offsets, hashes: hashes.buffer }, [labels, offsets, hashes.buffer]);
});
