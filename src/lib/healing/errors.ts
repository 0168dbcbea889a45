/** The label source failed in a way that may pass (connection refused, 5xx, 503 not ready, timeout): retry. */
export class TransientLabelSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TransientLabelSourceError";
  }
}

/**
 * Healing cannot go on without risking wrong names (service down past the retry budget, a rejected request such as
 * a label set mismatch, an answer that is not the label service's). Thrown out of the handler, it stops indexing.
 */
export class LabelHealingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LabelHealingError";
  }
}
