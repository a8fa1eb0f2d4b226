// The back-off between deleting failed daemon pods on a node, after the controller's
// failedPodsBackoff (flowcontrol.NewBackOff(1s, 15m), no jitter). The state lives with the
// caller; a sync reads it and returns the entries it advanced.
import { DaemonSet } from '@plinth/api';

export interface BackoffEntry {
  delayMs: number;
  lastUpdateMs: number;
}

export const initialFailedPodBackoffMs = 1000;
export const maxFailedPodBackoffMs = 15 * 60 * 1000;

// failedPodsBackoffKey is `<uid>/<observedGeneration>/<node>`, so a new generation starts over.
export function failedPodsBackoffKey(ds: DaemonSet, nodeName: string): string {
  return `${ds.metadata.uid ?? ''}/${ds.status?.observedGeneration ?? 0}/${nodeName}`;
}

// An entry not touched for twice the maximum has expired.
function hasExpired(entry: BackoffEntry, now: number): boolean {
  return now - entry.lastUpdateMs > 2 * maxFailedPodBackoffMs;
}

// backoffRemainingMs is how long the key is still backing off since its last update (0 when not).
export function backoffRemainingMs(entry: BackoffEntry | undefined, now: number): number {
  if (!entry || hasExpired(entry, now)) return 0;
  return Math.max(0, entry.lastUpdateMs + entry.delayMs - now);
}

// nextBackoff starts at the initial delay and doubles up to the maximum.
export function nextBackoff(entry: BackoffEntry | undefined, now: number): BackoffEntry {
  if (!entry || hasExpired(entry, now)) return { delayMs: initialFailedPodBackoffMs, lastUpdateMs: now };
  return { delayMs: Math.min(entry.delayMs * 2, maxFailedPodBackoffMs), lastUpdateMs: now };
}
