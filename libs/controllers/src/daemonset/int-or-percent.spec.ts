import { scaledValue } from './int-or-percent';

describe('scaledValue', () => {
  it.each([
    [3, 10, true, 3],
    ['10%', 5, true, 1],
    ['10%', 5, false, 0],
    ['50%', 5, true, 3],
    ['50%', 5, false, 2],
    ['100%', 7, true, 7],
    ['0%', 7, true, 0],
    ['25%', 0, true, 0],
  ] as const)('%p of %p (roundUp %p) is %p', (value, total, roundUp, want) => {
    expect(scaledValue(value, total, roundUp)).toBe(want);
  });

  it('rejects a non-percentage string and a missing value', () => {
    expect(() => scaledValue('ten', 5, true)).toThrow('not a percentage');
    expect(() => scaledValue(undefined, 5, true)).toThrow('nil value');
  });
});
