import { LabelServiceError, MESSAGES } from "../errors.js";
import type { LabelSetPin } from "../label-set.js";

/**
 * The highest label set version a heal may return, after checking the client's pin against the served set.
 * Without a pin every version counts; a pin to an older version keeps answers stable as newer ones load.
 */
export function maxVersionFor(pin: LabelSetPin, served: { labelSetId: string; highestVersion: number }): number {
  if (pin.labelSetVersion !== undefined && pin.labelSetId === undefined) {
    throw new LabelServiceError(400, MESSAGES.versionWithoutId);
  }
  if (pin.labelSetId !== undefined && pin.labelSetId !== served.labelSetId) {
    throw new LabelServiceError(400, MESSAGES.labelSetIdMismatch(served.labelSetId, pin.labelSetId));
  }
  if (pin.labelSetVersion === undefined) return served.highestVersion;
  if (pin.labelSetVersion > served.highestVersion) throw new LabelServiceError(400, MESSAGES.versionTooHigh);
  return pin.labelSetVersion;
}
