// rfc3339 formats a time (ms since the epoch) as metav1.Time marshals: RFC 3339 in UTC, whole
// seconds (the fraction is dropped, as Go's time.RFC3339 layout does). The last second formatted
// is kept: the writes of one second (creationTimestamp, managedFields' time) ask for it again.
let lastSecond = NaN;
let lastFormatted = '';

export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastFormatted = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastFormatted;
}
