import { canonicalJSON, computeHash, safeEncodeString } from './revision-hash';

describe('revision hash', () => {
  const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } };

  it('is stable under key order and changes with the template and the collision count', () => {
    const reordered = { spec: { containers: [{ image: 'i:1', name: 'c' }] }, metadata: { labels: { app: 'a' } } };
    expect(computeHash(reordered)).toBe(computeHash(template));
    expect(computeHash(template)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(computeHash({ ...template, spec: { containers: [{ name: 'c', image: 'i:2' }] } })).not.toBe(computeHash(template));
    expect(computeHash(template, 1)).not.toBe(computeHash(template));
    expect(computeHash(template, 1)).not.toBe(computeHash(template, 2));
  });

  it('canonicalJSON sorts keys and drops undefined', () => {
    expect(canonicalJSON({ b: 1, a: [{ d: undefined, c: 'x' }], e: null })).toBe('{"a":[{"c":"x"}],"b":1,"e":null}');
  });

  it('safeEncodeString maps characters onto the vowel-free alphabet', () => {
    // '0' is 48, 48 % 27 = 21 -> '4'; '9' is 57, 57 % 27 = 3 -> 'f'
    expect(safeEncodeString('09')).toBe('4f');
  });
});
