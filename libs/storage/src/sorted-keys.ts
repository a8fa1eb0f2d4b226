// SortedKeys keeps a set of keys in order as they come and go, for the embedded store's key
// space and each watch cache: pages are cut, and the keys after a page counted, by position.
// The keys are held in chunks of at most maxChunk, so that adding or removing one moves at
// most a chunk's worth of keys: as one array, deleting 100,000 keys in order shifted the whole
// array each time (seconds of a blocked event loop).
const maxChunk = 512;

export class SortedKeys {
  private chunks: string[][] = [];
  // starts[i] is the position of chunks[i][0]; recomputed after a change, when next needed.
  private starts: number[] = [];
  private startsValid = true;
  private count = 0;

  get size(): number {
    return this.count;
  }

  replace(keys: Iterable<string>): void {
    const sorted = [...new Set(keys)].sort();
    this.chunks = [];
    for (let i = 0; i < sorted.length; i += maxChunk / 2) this.chunks.push(sorted.slice(i, i + maxChunk / 2));
    this.count = sorted.length;
    this.startsValid = false;
  }

  add(key: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.changed(1);
      return;
    }
    const c = this.chunkFor(key);
    const chunk = this.chunks[c];
    const at = lowerBound(chunk, key);
    if (chunk[at] === key) return;
    chunk.splice(at, 0, key);
    if (chunk.length > maxChunk) this.chunks.splice(c, 1, chunk.slice(0, chunk.length >> 1), chunk.slice(chunk.length >> 1));
    this.changed(1);
  }

  remove(key: string): void {
    if (this.chunks.length === 0) return;
    const c = this.chunkFor(key);
    const chunk = this.chunks[c];
    const at = lowerBound(chunk, key);
    if (chunk[at] !== key) return;
    chunk.splice(at, 1);
    if (chunk.length === 0) this.chunks.splice(c, 1);
    this.changed(-1);
  }

  // at is the key at a position (0 ≤ index < size).
  at(index: number): string {
    const starts = this.positions();
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle] <= index) low = middle;
      else high = middle - 1;
    }
    return this.chunks[low][index - starts[low]];
  }

  // range is the positions [start, end) of the keys under a prefix.
  range(prefix: string): { start: number; end: number } {
    return { start: this.lowerBound(prefix), end: this.lowerBound(prefixEnd(prefix)) };
  }

  // between yields the keys in [start, end) in order.
  *between(start: string, end: string): IterableIterator<string> {
    for (let c = this.chunks.length === 0 ? 0 : this.chunkFor(start); c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      for (let i = lowerBound(chunk, start); i < chunk.length; i++) {
        if (chunk[i] >= end) return;
        yield chunk[i];
      }
    }
  }

  // lowerBound is the position of the first key not before key.
  lowerBound(key: string): number {
    if (this.chunks.length === 0) return 0;
    const c = this.chunkFor(key);
    return this.positions()[c] + lowerBound(this.chunks[c], key);
  }

  // chunkFor is the first chunk whose last key is not before key, or the last chunk.
  private chunkFor(key: string): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.chunks[middle];
      if (chunk[chunk.length - 1] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private changed(delta: number): void {
    this.count += delta;
    this.startsValid = false;
  }

  private positions(): number[] {
    if (this.startsValid) return this.starts;
    this.starts = new Array(this.chunks.length);
    let position = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      this.starts[c] = position;
      position += this.chunks[c].length;
    }
    this.startsValid = true;
    return this.starts;
  }
}

function lowerBound(keys: string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys[middle] < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

// prefixEnd is the smallest string after every string that starts with prefix.
function prefixEnd(prefix: string): string {
  if (prefix === '') return '\uffff';
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
