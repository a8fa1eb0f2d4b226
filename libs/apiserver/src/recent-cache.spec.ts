import { RecentCache } from './recent-cache';

describe('RecentCache', () => {
  it('keeps at most twice its capacity, dropping what was not used for a generation', () => {
    const cache = new RecentCache<number, string>(2);
    for (let key = 0; key < 10; key++) cache.set(key, `v${key}`);
    expect(cache.size).toBe(4);
    expect(cache.get(0)).toBeUndefined();
    expect([9, 8, 7].map((key) => cache.get(key))).toEqual(['v9', 'v8', 'v7']);
  });

  it('moves an entry of the previous generation up when it is used again, so that it outlives the others', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    cache.set('e', 5);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
  });
});
