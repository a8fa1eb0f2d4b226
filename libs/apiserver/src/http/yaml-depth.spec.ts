import { yamlNestingError } from './yaml-depth';

const flow = (levels: number) => `a: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;

describe('yamlNestingError', () => {
  it('counts flow collections, and block collections by indentation and "- "', () => {
    expect(yamlNestingError(flow(499))).toBeNull();
    expect(yamlNestingError(flow(500))).toBe('yaml: exceeded max depth of 500');
    const block = Array.from({ length: 600 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(yamlNestingError(block)).toBe('yaml: line 501: exceeded max depth of 500');
    expect(yamlNestingError(`x:\n${'- '.repeat(600)}1\n`)).toBe('yaml: line 2: exceeded max depth of 500');
  });

  it('does not count brackets in quoted scalars, plain scalars, comments or block scalars', () => {
    const brackets = '['.repeat(1000);
    expect(yamlNestingError(`a: "${brackets}"\nb: '${brackets}'\nc: x${brackets}\n# ${brackets}\n`)).toBeNull();
    expect(yamlNestingError(`a: |\n  ${brackets}\n  ${'{'.repeat(1000)}\nb: >-\n  ${brackets}\n`)).toBeNull();
    expect(yamlNestingError(`a: "multi\n  line ${brackets}"\nb: ${flow(10)}`)).toBeNull();
  });

  it('lets ordinary documents through', () => {
    expect(yamlNestingError('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n    args: ["a", {b: [1, 2]}]\n')).toBeNull();
  });
});
