// ReadBound is what a read served from a watch cache must have seen: the cache waits up to
// waitMs to reach revision, and storage serves the read when it does not.
export interface ReadBound {
  revision: number;
  waitMs: number;
}

// cacheCatchUpMs bounds the wait for a cache to reach a revision this server wrote or a client
// named: its own events reach it within that.
export const cacheCatchUpMs = 3000;

// sharedCatchUpMs bounds the wait for a cache to reach storage's current revision: no wait. A
// cache behind it is most often behind only because other resources were written since its
// last event (it learns their revisions at etcd's next progress notification, seconds away),
// so waiting would only delay the storage read that follows (measured: waiting up to 100 ms, a
// LIST of a quiet resource while another was written took 130 ms at p50 instead of 10).
export const sharedCatchUpMs = 0;
