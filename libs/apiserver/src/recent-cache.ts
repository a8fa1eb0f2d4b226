// RecentCache keeps the values of the keys used lately, at most 2 × capacity of them, in two
// generations: new entries go into the current one; when it is full it becomes the previous
// one (the one before is dropped), and an entry of the previous one used again moves up. So an
// entry stays while it is used at least once every `capacity` insertions, and what nobody asked
// for lately goes, whatever the number of keys: the cost of keeping a value for every object of
// a large collection, of which lists read a few pages, is bounded.
export class RecentCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.capacity) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}
