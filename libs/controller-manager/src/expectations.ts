// Expectations hold a controller's next scaling decision for a key until the pods it created
// and deleted are seen by its informer, as ControllerExpectations in Kubernetes'
// pkg/controller/controller_utils.go: a sync on a stale cache would create or delete twice.
export class Expectations {
  private readonly pending = new Map<string, { adds: number; deletes: Set<string> }>();

  // expect records the creations and the deletions (by name) a sync is about to make.
  expect(key: string, adds: number, deletes: Iterable<string>): void {
    this.pending.set(key, { adds, deletes: new Set(deletes) });
  }

  // creationObserved counts one creation as seen (or as failed: it will never be seen).
  creationObserved(key: string): void {
    const e = this.pending.get(key);
    if (e && e.adds > 0) e.adds--;
  }

  // deletionObserved counts the deletion of the named pod as seen (or as failed).
  deletionObserved(key: string, name: string): void {
    this.pending.get(key)?.deletes.delete(name);
  }

  // deletionsPending are the names of the pods a sync of the key deleted that the informer has
  // not seen go yet.
  deletionsPending(key: string): ReadonlySet<string> {
    return this.pending.get(key)?.deletes ?? new Set();
  }

  satisfied(key: string): boolean {
    const e = this.pending.get(key);
    return !e || (e.adds <= 0 && e.deletes.size === 0);
  }

  forget(key: string): void {
    this.pending.delete(key);
  }
}
