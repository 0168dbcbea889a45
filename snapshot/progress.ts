/** How often a long step prints where it is. */
const EVERY_MS = 5_000;

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * A progress line for a stream of known (or unknown) size, printed at most every few seconds: bytes, rate, time left;
 * and a closing line with the total.
 */
export class Progress {
  private readonly started = Date.now();
  private printed = Date.now();

  constructor(
    private readonly what: string,
    private readonly totalBytes: number | undefined,
    private readonly log: (line: string) => void,
  ) {}

  update(bytes: number): void {
    const now = Date.now();
    if (now - this.printed < EVERY_MS) return;
    this.printed = now;
    const rate = bytes / ((now - this.started) / 1000);
    const of = this.totalBytes === undefined ? "" : ` of ${mib(this.totalBytes)}`;
    const left =
      this.totalBytes === undefined || rate === 0 ? "" : `, ${Math.ceil((this.totalBytes - bytes) / rate)} s left`;
    this.log(`${this.what}: ${mib(bytes)}${of} MiB, ${mib(rate)} MiB/s${left}`);
  }

  done(bytes: number): void {
    const seconds = (Date.now() - this.started) / 1000;
    this.log(
      `${this.what}: ${mib(bytes)} MiB in ${seconds.toFixed(1)} s, ${mib(bytes / Math.max(seconds, 0.001))} MiB/s`,
    );
  }
}
