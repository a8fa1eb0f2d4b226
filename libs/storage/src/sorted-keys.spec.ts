import { SortedKeys } from './sorted-keys';

// model is the plain sorted array the chunked keys must always read as.
function expectSame(keys: SortedKeys, model: string[]): void {
  expect(keys.size).toBe(model.length);
  for (let i = 0; i < model.length; i += 97) expect(keys.at(i)).toBe(model[i]);
  if (model.length > 0) expect(keys.at(model.length - 1)).toBe(model[model.length - 1]);
}

// lcg is a small seeded generator: the same keys every run.
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('SortedKeys', () => {
  it('reads as one sorted array through adds and removes in any order, across many chunks', () => {
    const keys = new SortedKeys();
    const model: string[] = [];
    const random = lcg(7);
    const name = () => `/registry/leases/ns/l-${Math.floor(random() * 20_000)}`;
    for (let step = 0; step < 30_000; step++) {
      const key = name();
      const at = model.findIndex((k) => k >= key);
      const present = at >= 0 && model[at] === key;
      if (random() < 0.6) {
        keys.add(key);
        if (!present) model.splice(at < 0 ? model.length : at, 0, key);
      } else {
        keys.remove(key);
        if (present) model.splice(at, 1);
      }
      if (step % 5000 === 0) expectSame(keys, model);
    }
    expectSame(keys, model);
    const probe = '/registry/leases/ns/l-15';
    expect(keys.lowerBound(probe)).toBe(model.filter((k) => k < probe).length);
    expect([...keys.between(probe, '/registry/leases/ns/l-16')]).toEqual(model.filter((k) => k >= probe && k < '/registry/leases/ns/l-16'));
  });

  it('empties when every key is removed in order, and counts the keys under a prefix by position', () => {
    const keys = new SortedKeys();
    const names = Array.from({ length: 5000 }, (_, i) => `/registry/leases/a/${String(i).padStart(5, '0')}`);
    keys.replace([...names].reverse());
    keys.add('/registry/leases/b/x');
    expect(keys.range('/registry/leases/a/')).toEqual({ start: 0, end: 5000 });
    expect(keys.range('/registry/leases/b/')).toEqual({ start: 5000, end: 5001 });
    for (const key of names) keys.remove(key);
    expect(keys.size).toBe(1);
    expect(keys.range('/registry/leases/a/')).toEqual({ start: 0, end: 0 });
    expect(keys.at(0)).toBe('/registry/leases/b/x');
    keys.remove('/registry/leases/b/x');
    expect(keys.size).toBe(0);
    expect([...keys.between('', '\uffff')]).toEqual([]);
    expect(keys.lowerBound('anything')).toBe(0);
  });
});
