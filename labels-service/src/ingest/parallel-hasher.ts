import { Worker } from "node:worker_threads";

// Records per message to the worker: large enough that messaging costs nothing next to hashing.
const BATCH_RECORDS = 8192;
const ARENA_BYTES = 1 << 20;
// Batches queued ahead of the writer: keeps both threads busy while bounding memory.
const MAX_IN_FLIGHT = 3;

interface Batch {
  arena: Buffer;
  used: number;
  offsets: Uint32Array;
  count: number;
  expected: Buffer;
  hasExpected: Uint8Array;
  locations: Float64Array;
}

interface HashedReply {
  id: number;
  labels: ArrayBuffer;
  offsets: ArrayBuffer;
  hashes: ArrayBuffer;
}

export class LabelhashMismatchError extends Error {
  constructor(readonly location: number) {
    super("the labelhash does not equal keccak256 of the label");
  }
}

const newBatch = (arenaBytes = ARENA_BYTES): Batch => ({
  arena: Buffer.allocUnsafe(arenaBytes),
  used: 0,
  offsets: new Uint32Array(BATCH_RECORDS + 1),
  count: 0,
  expected: Buffer.allocUnsafe(BATCH_RECORDS * 32),
  hasExpected: new Uint8Array(BATCH_RECORDS),
  locations: new Float64Array(BATCH_RECORDS),
});

/**
 * Computes labelhashes on a worker thread while the main thread parses input and writes SQLite:
 * keccak256 in JavaScript is the largest single cost of an ingest, and the two halves overlap on two cores.
 * Records come out in input order through `onHashed`; a labelhash the input gave must match the computed one.
 */
export class ParallelHasher {
  private readonly worker = new Worker(new URL("./hash-worker.mjs", import.meta.url));
  private batch = newBatch();
  private readonly pending = new Map<number, { batch: Batch; resolve: () => void }>();
  private readonly inFlight: Promise<void>[] = [];
  private nextId = 0;
  private failure: unknown = null;

  constructor(private readonly onHashed: (labelhash: Buffer, label: Buffer) => void) {
    this.worker.on("message", (reply: HashedReply) => this.receive(reply));
    this.worker.on("error", (error) => this.fail(error));
  }

  /** Queues a record; the label bytes are copied. */
  add(label: Buffer, expectedLabelhash: Buffer | null, location: number): void {
    if (this.failure !== null) throw this.failure;
    let batch = this.batch;
    if (batch.count === BATCH_RECORDS || batch.used + label.length > batch.arena.length) {
      this.dispatch();
      if (label.length > ARENA_BYTES) this.batch = newBatch(label.length);
      batch = this.batch;
    }
    const i = batch.count++;
    batch.offsets[i] = batch.used;
    label.copy(batch.arena, batch.used);
    batch.used += label.length;
    batch.offsets[i + 1] = batch.used;
    batch.locations[i] = location;
    batch.hasExpected[i] = expectedLabelhash === null ? 0 : 1;
    if (expectedLabelhash !== null) expectedLabelhash.copy(batch.expected, i * 32);
  }

  /** Waits while too many batches are queued; rethrows a failure from hashing or writing. */
  async drain(maxInFlight = MAX_IN_FLIGHT): Promise<void> {
    while (this.inFlight.length > maxInFlight) await this.inFlight.shift();
    if (this.failure !== null) throw this.failure;
  }

  /** Hashes and delivers everything queued. */
  async finish(): Promise<void> {
    if (this.batch.count > 0) this.dispatch();
    await this.drain(0);
  }

  async close(): Promise<void> {
    // Replies still arriving while the worker stops must not reach the writer, which may have rolled back.
    this.fail(new Error("hasher closed"));
    for (const { resolve } of this.pending.values()) resolve();
    this.pending.clear();
    await this.worker.terminate();
  }

  private dispatch(): void {
    const batch = this.batch;
    this.batch = newBatch();
    const id = this.nextId++;
    this.inFlight.push(new Promise<void>((resolve) => this.pending.set(id, { batch, resolve })));
    const labels = batch.arena.buffer.slice(batch.arena.byteOffset, batch.arena.byteOffset + batch.used) as ArrayBuffer;
    const offsets = batch.offsets.slice(0, batch.count + 1).buffer;
    this.worker.postMessage({ id, labels, offsets, count: batch.count }, [labels, offsets]);
  }

  private receive(reply: HashedReply): void {
    const entry = this.pending.get(reply.id);
    if (entry === undefined) return;
    this.pending.delete(reply.id);
    try {
      if (this.failure === null) this.deliver(entry.batch, Buffer.from(reply.labels), Buffer.from(reply.hashes));
    } catch (error) {
      this.fail(error);
    }
    entry.resolve();
  }

  private deliver(batch: Batch, labels: Buffer, hashes: Buffer): void {
    const { offsets, hasExpected, expected } = batch;
    for (let i = 0; i < batch.count; i++) {
      const at = i * 32;
      if (hasExpected[i] === 1 && hashes.compare(expected, at, at + 32, at, at + 32) !== 0) {
        throw new LabelhashMismatchError(batch.locations[i]);
      }
      this.onHashed(hashes.subarray(at, at + 32), labels.subarray(offsets[i], offsets[i + 1]));
    }
  }

  private fail(error: unknown): void {
    if (this.failure === null) this.failure = error;
  }
}
