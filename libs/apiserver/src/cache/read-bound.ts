// ReadBound is what a read served from a watch cache must have seen: the cache waits up to
// waitMs to reach revision, and storage serves the read when it does not.
export interface ReadBound {
  revision: number;
  waitMs: number;
}

// cacheCatchUpMs bounds the wait for a cache to reach a revision this server wrote or a client
// named: its own events reach it within that.
export const cacheCatchUpMs = 3000;

// sharedCatchUpMs bounds the wait for a cache to reach storage's current revision: a change of
// the resource reaches the cache within it, but a revision moved only by writes to other
// resources is seen at storage's next progress notification (seconds), so storage serves the
// read sooner than that.
export const sharedCatchUpMs = 100;
