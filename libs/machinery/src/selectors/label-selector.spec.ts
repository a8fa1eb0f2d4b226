import { newPath } from '../errors/field-path';
import { labelSelectorAsSelector, labelSelectorMatches, validateLabelSelector } from './label-selector';
import { SelectorError } from './selector-error';

const nameRegex = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function conversionError(ps: Parameters<typeof labelSelectorAsSelector>[0]): string {
  try {
    labelSelectorAsSelector(ps);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('labelSelectorAsSelector', () => {
  it('selects nothing for a null selector and everything for an empty one', () => {
    expect(labelSelectorAsSelector(null).matches({})).toBe(false);
    expect(labelSelectorAsSelector(undefined).empty()).toBe(false);
    expect(labelSelectorAsSelector({}).matches({ a: 'b' })).toBe(true);
    expect(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).empty()).toBe(true);
  });

  it('combines matchLabels and matchExpressions, sorted by key', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { b: '2', a: '1' },
      matchExpressions: [
        { key: 'c', operator: 'In', values: ['y', 'x'] },
        { key: 'd', operator: 'Exists' },
        { key: 'e', operator: 'NotIn', values: ['z'] },
        { key: 'f', operator: 'DoesNotExist', values: [] },
      ],
    });
    expect(s.toString()).toBe('a=1,b=2,c in (x,y),d,e notin (z),!f');
    expect(s.matches({ a: '1', b: '2', c: 'x', d: '' })).toBe(true);
    expect(s.matches({ a: '1', b: '2', c: 'x', d: '', e: 'z' })).toBe(false);
    expect(s.matches({ a: '1', b: '2', c: 'x', d: '', f: '' })).toBe(false);
    expect(s.matches({ a: '1', b: '2', c: 'w', d: '' })).toBe(false);
  });

  it('rejects what labels.NewRequirement rejects', () => {
    expect(conversionError({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toBe(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(conversionError({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] })).toBe(
      'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
    );
    expect(conversionError({ matchLabels: { 'a b': 'c' } })).toBe(`key: Invalid value: "a b": ${nameRegex}`);
    expect(conversionError({ matchLabels: { a: '-x' } })).toMatch(/^values\[0\]\[a\]: Invalid value: "-x": a valid label must be/);
    expect(conversionError({ matchExpressions: [{ key: '-k', operator: 'NotIn' }] })).toBe(
      `[key: Invalid value: "-k": ${nameRegex}, values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty]`,
    );
  });

  it('rejects an unknown operator', () => {
    expect(conversionError({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toBe('"Foo" is not a valid label selector operator');
    expect(conversionError({ matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] })).toBe('"in" is not a valid label selector operator');
  });

  it('labelSelectorMatches converts and matches', () => {
    expect(labelSelectorMatches({ matchLabels: { app: 'web' } }, { app: 'web', x: 'y' })).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { app: 'web' } }, undefined)).toBe(false);
  });
});

describe('validateLabelSelector', () => {
  const path = newPath('spec', 'selector');

  it('accepts a null or valid selector', () => {
    expect(validateLabelSelector(null, {}, path)).toEqual([]);
    expect(validateLabelSelector({ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['d'] }] }, {}, path)).toEqual([]);
  });

  it('reports each problem at its field', () => {
    const errs = validateLabelSelector(
      {
        matchLabels: { '-a': 'b' },
        matchExpressions: [
          { key: 'a', operator: 'In' },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: 'c', operator: 'Foo' },
          { key: 'd', operator: 'NotIn', values: ['ok', '-bad'] },
        ],
      },
      {},
      path,
    ).map(String);
    expect(errs).toEqual([
      `spec.selector.matchLabels: Invalid value: "-a": ${nameRegex}`,
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Foo": not a valid selector operator',
      expect.stringMatching(/^spec\.selector\.matchExpressions\[3\]\.values\[1\]: Invalid value: "-bad": a valid label must be/),
    ]);
  });

  it('lets invalid values through when allowed, for old objects', () => {
    const ps = { matchExpressions: [{ key: 'd', operator: 'In', values: ['-bad'] }] };
    expect(validateLabelSelector(ps, { allowInvalidLabelValueInSelector: true }, path)).toEqual([]);
  });
});
