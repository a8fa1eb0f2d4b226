import { newPath } from '../errors/field-path';
import { validateAnnotations, validateLabels } from './labels';

const labelsPath = newPath('metadata', 'labels');

describe('validateLabels', () => {
  it('accepts valid labels', () => {
    expect(validateLabels({ app: 'web', 'platform.io/role': '', tier: 'a.b' }, labelsPath)).toEqual([]);
  });

  it('addresses key and value errors to the map', () => {
    const errs = validateLabels({ '-a': 'b!' }, labelsPath).map(String);
    expect(errs).toEqual([
      'metadata.labels: Invalid value: "-a": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'metadata.labels: Invalid value: "b!": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
    ]);
  });

  // 100,000 entries (the hardening suite's ~1.3 MB body): only the invalid ones are reported,
  // in sorted key order whatever order the map holds them in.
  it('reports the invalid entries of a very large map in sorted key order', () => {
    const labels = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`l${i}`, 'v']));
    expect(validateLabels(labels, labelsPath)).toEqual([]);
    Object.assign(labels, { 'z-': 'v', '-m': 'v', l5: 'bad!', 'a😀': 'v', 'a～': 'v' });
    expect(validateLabels(labels, labelsPath).map((e) => e.badValue)).toEqual(['-m', 'a～', 'a😀', 'bad!', 'z-']);
  });
});

describe('validateAnnotations', () => {
  const path = newPath('metadata', 'annotations');

  it('checks keys ignoring case', () => {
    expect(validateAnnotations({ 'Example.COM/Key': 'anything at all' }, path)).toEqual([]);
    expect(validateAnnotations({ 'a b': '' }, path).map(String)[0]).toMatch(/^metadata\.annotations: Invalid value: "a b": name part must consist/);
  });

  it('limits the total size to 256 KiB', () => {
    expect(validateAnnotations({ a: 'x'.repeat(256 * 1024 - 1) }, path)).toEqual([]);
    expect(validateAnnotations({ a: 'x'.repeat(256 * 1024) }, path).map(String)).toEqual([
      'metadata.annotations: Too long: must have at most 262144 bytes',
    ]);
  });

  it('sums a very large map and reports its invalid keys in sorted order, then the size', () => {
    const annotations = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`a${i}`, 'v']));
    Object.assign(annotations, { 'z b': '', 'A_': 'é' });
    const errs = validateAnnotations(annotations, path);
    expect(errs.map((e) => e.badValue).slice(0, 2)).toEqual(['A_', 'z b']);
    expect(errs.slice(2).map(String)).toEqual(['metadata.annotations: Too long: must have at most 262144 bytes']);
    const fits = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`a${i}`, 'v']));
    expect(validateAnnotations(fits, path)).toEqual([]);
  });
});
