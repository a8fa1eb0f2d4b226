// SortedKeys is the ordered key space of the embedded store: a sorted array with binary search,
// enough for the object counts one control-plane process holds.
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  insert(key: string): void {
    const at = this.lowerBound(key);
    if (this.keys[at] !== key) this.keys.splice(at, 0, key);
  }

  remove(key: string): void {
    const at = this.lowerBound(key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }

  // range yields the keys in [start, end) in order.
  *range(start: string, end: string): IterableIterator<string> {
    for (let i = this.lowerBound(start); i < this.keys.length && this.keys[i] < end; i++) {
      yield this.keys[i];
    }
  }

  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
