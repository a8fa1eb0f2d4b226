import { compareQuantities, formatQuantity, parseQuantity, quantityFormatError } from './quantity';

describe('quantity', () => {
  it.each([
    ['1', '1'],
    ['1000m', '1'],
    ['1500m', '1500m'],
    ['0.5', '500m'],
    ['1000', '1k'],
    ['1Gi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['512', '512'],
    ['1e3', '1e3'],
    ['-1Gi', '-1Gi'],
    ['0', '0'],
    ['0.1n', '1n'],
  ])('%s prints as %s', (text, canonical) => {
    expect(formatQuantity(parseQuantity(text))).toBe(canonical);
  });

  it('compares values', () => {
    expect(compareQuantities(parseQuantity('1'), parseQuantity('1000m'))).toBe(0);
    expect(compareQuantities(parseQuantity('1Gi'), parseQuantity('1G'))).toBe(1);
  });

  it('rejects malformed quantities', () => {
    expect(() => parseQuantity('abc')).toThrow(quantityFormatError);
    expect(() => parseQuantity('1Xi')).toThrow();
  });
});
