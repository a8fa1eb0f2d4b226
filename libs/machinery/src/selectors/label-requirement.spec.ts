import { newPath } from '../errors/field-path';
import { newLabelRequirement, parseInt64, SelectionOperator, SelectorError } from './labels';

function requirementError(...args: Parameters<typeof newLabelRequirement>): string {
  try {
    newLabelRequirement(...args);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('newLabelRequirement (labels.NewRequirement)', () => {
  it('builds valid requirements', () => {
    expect(newLabelRequirement('x', 'in', ['b', 'a']).toString()).toBe('x in (a,b)');
    expect(newLabelRequirement('x', '!', []).toString()).toBe('!x');
    expect(newLabelRequirement('x', 'gt', ['3']).toString()).toBe('x>3');
  });

  it('rejects a negative bound, which is not a valid label value', () => {
    expect(requirementError('x', 'gt', ['-3'])).toMatch(/^values\[0\]\[x\]: Invalid value: "-3": a valid label must be/);
  });

  it('checks the number of values for each operator', () => {
    expect(requirementError('x', 'in', [])).toBe("values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty");
    expect(requirementError('x', 'notin', undefined)).toBe("values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty");
    expect(requirementError('x', '=', ['a', 'b'])).toBe('values: Invalid value: []string{"a", "b"}: exact-match compatibility requires one single value');
    expect(requirementError('x', 'exists', ['a'])).toBe('values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist');
    expect(requirementError('x', 'lt', ['1', '2'])).toBe('values: Invalid value: []string{"1", "2"}: for \'Gt\', \'Lt\' operators, exactly one value is required');
  });

  it('rejects unknown operators with the supported list', () => {
    expect(requirementError('x', 'like', ['a'])).toBe(
      'operator: Unsupported value: "like": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    );
  });

  it('aggregates several errors and uses the given path', () => {
    expect(requirementError('-k', SelectionOperator.In, [], newPath('spec', 'selector'))).toBe(
      "[spec.selector.key: Invalid value: \"-k\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
        "spec.selector.values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty]",
    );
  });

  it('parseInt64 follows strconv.ParseInt', () => {
    expect(parseInt64('+5')).toBe(5n);
    expect(parseInt64('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(parseInt64('9223372036854775808')).toBeUndefined();
    expect(parseInt64('1.0')).toBeUndefined();
    expect(parseInt64(' 1')).toBeUndefined();
    expect(parseInt64('')).toBeUndefined();
  });
});
