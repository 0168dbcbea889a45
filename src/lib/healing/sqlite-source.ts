import type { Hex } from "viem";
import { LabelHealingError, TransientLabelSourceError } from "./errors";
import type { LabelSetPin, LabelSource } from "./sources";

/** What the label service exports for reading its database in-process (labels-service/src/index.ts). */
export interface LocalLabelStore {
  heal(labelhash: string, pin: { labelSetId: string; labelSetVersion: number }): string | null;
}
type OpenLabelStore = (dbPath: string) => LocalLabelStore | Promise<LocalLabelStore>;

// Resolved at run time: the label service is its own small world, and the indexer only needs this one function.
// Its store module alone loads in a fraction of the whole package's time (no server, no ingest).
const LABELS_SERVICE_MODULES = ["../../../labels-service/src/store/label-store", "../../../labels-service/src/index"];

/**
 * The label SQLite file read directly (read-only), for an indexer running next to its label database: a lookup
 * is a B-tree probe instead of an HTTP round trip. Answers match the service's for the same pin.
 */
export class SqliteLabelSource implements LabelSource {
  readonly description: string;
  private store: Promise<LocalLabelStore> | null = null;

  constructor(
    private readonly dbPath: string,
    private readonly labelSet: LabelSetPin,
    private readonly open?: OpenLabelStore,
  ) {
    this.description = `label database ${dbPath}`;
  }

  /** Opens the database ahead of the first lookup. */
  async warmUp(): Promise<void> {
    await this.openOnce();
  }

  async lookup(labelhash: Hex): Promise<string | null> {
    const store = await this.openOnce();
    try {
      return store.heal(labelhash, this.labelSet);
    } catch (error) {
      const status = (error as { status?: number }).status;
      const message = `${this.description}: ${(error as Error).message}`;
      if (status === 503 || status === 500) throw new TransientLabelSourceError(message, { cause: error });
      if (status === 404) return null;
      throw new LabelHealingError(
        `${message}. Check LABELS_DB and that it holds the pinned label set ${this.labelSet.labelSetId} v${this.labelSet.labelSetVersion}.`,
        { cause: error },
      );
    }
  }

  private openOnce(): Promise<LocalLabelStore> {
    this.store ??= (async () => {
      try {
        const open = this.open ?? (await loadOpenLabelStore());
        return await open(this.dbPath);
      } catch (error) {
        this.store = null;
        throw new LabelHealingError(`Cannot open the ${this.description}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    })();
    return this.store;
  }
}

async function loadOpenLabelStore(): Promise<OpenLabelStore> {
  for (const path of LABELS_SERVICE_MODULES) {
    const module = (await import(/* @vite-ignore */ path).catch(() => null)) as {
      openLabelStore?: OpenLabelStore;
    } | null;
    if (typeof module?.openLabelStore === "function") return module.openLabelStore;
  }
  throw new Error("labels-service/src/index.ts exports no openLabelStore");
}
