// rfc3339 formats a time (ms since the epoch) as metav1.Time marshals: RFC 3339 in UTC, whole
// seconds (the fraction is dropped, as Go's time.RFC3339 layout does).
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
