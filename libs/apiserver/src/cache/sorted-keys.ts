// SortedKeys keeps the keys of a watch cache in order as objects come and go (a binary search
// and one splice per new or removed key), so that a page is cut, and the items after it are
// counted, by position rather than by walking every key.
export class SortedKeys {
  private keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  replace(keys: Iterable<string>): void {
    this.keys = [...keys].sort();
  }

  add(key: string): void {
    const at = this.lowerBound(key);
    if (this.keys[at] !== key) this.keys.splice(at, 0, key);
  }

  remove(key: string): void {
    const at = this.lowerBound(key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }

  at(index: number): string {
    return this.keys[index];
  }

  // range is the positions [start, end) of the keys under a prefix.
  range(prefix: string): { start: number; end: number } {
    return { start: this.lowerBound(prefix), end: this.lowerBound(prefixEnd(prefix)) };
  }

  // lowerBound is the position of the first key not before key.
  lowerBound(key: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

// prefixEnd is the smallest string after every string that starts with prefix.
function prefixEnd(prefix: string): string {
  if (prefix === '') return '\uffff';
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
