import { semanticEqual } from './semantic';

describe('semanticEqual', () => {
  it('counts absent, null, empty lists and empty maps as the same', () => {
    expect(semanticEqual({ a: [], b: null, c: {} }, {})).toBe(true);
    expect(semanticEqual(undefined, [])).toBe(true);
    expect(semanticEqual({ rules: [{ verbs: ['get'], resources: [] }] }, { rules: [{ verbs: ['get'] }] })).toBe(true);
  });

  it('tells different values, lengths and kinds apart', () => {
    expect(semanticEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(semanticEqual(['a'], ['a', 'b'])).toBe(false);
    expect(semanticEqual(['a'], { 0: 'a' })).toBe(false);
    expect(semanticEqual({ a: { b: 'x' } }, { a: {} })).toBe(false);
    expect(semanticEqual(0, '')).toBe(false);
  });
});
