import * as field from './field';
import { FieldErrorType, newPath } from './field';

const spec = newPath('spec');

describe('field errors (field.Error.Error())', () => {
  it.each([
    [field.required(spec.child('a'), ''), 'spec.a: Required value'],
    [field.required(spec.child('a'), 'must be set'), 'spec.a: Required value: must be set'],
    [field.invalid(spec.child('completions'), 5, 'must be less than or equal to parallelism'), 'spec.completions: Invalid value: 5: must be less than or equal to parallelism'],
    [field.invalid(newPath('metadata', 'name'), 'Foo_', 'bad name'), 'metadata.name: Invalid value: "Foo_": bad name'],
    [field.invalid(spec.child('suspend'), true, 'nope'), 'spec.suspend: Invalid value: true: nope'],
    [field.invalid(spec.child('x'), null, 'nope'), 'spec.x: Invalid value: null: nope'],
    [field.invalid(spec.child('x'), ['a', 'b'], 'nope'), 'spec.x: Invalid value: []string{"a", "b"}: nope'],
    [
      field.notSupported(spec.child('completionMode'), 'Foo', ['Indexed', 'NonIndexed']),
      'spec.completionMode: Unsupported value: "Foo": supported values: "Indexed", "NonIndexed"',
    ],
    [field.notSupported(spec.child('mode'), 'Foo'), 'spec.mode: Unsupported value: "Foo"'],
    [field.duplicate(spec.child('items').index(1), 'a'), 'spec.items[1]: Duplicate value: "a"'],
    [field.forbidden(newPath('metadata', 'namespace'), 'not allowed on this type'), 'metadata.namespace: Forbidden: not allowed on this type'],
    [field.tooLong(newPath('metadata', 'name'), 'x'.repeat(300), 253), 'metadata.name: Too long: must have at most 253 bytes'],
    [field.tooLongMaxLength(spec.child('s'), 'xyz', 2), 'spec.s: Too long: may not be longer than 2'],
    [field.tooLongMaxLength(spec.child('s'), 'xyz', -1), 'spec.s: Too long: value is too long'],
    [field.tooMany(spec.child('items'), 5, 3), 'spec.items: Too many: 5: must have at most 3 items'],
    [field.tooMany(spec.child('items'), -1, 3), 'spec.items: Too many: must have at most 3 items'],
    [field.tooMany(spec.child('items'), 5, -1), 'spec.items: Too many: 5: has too many items'],
    [field.notFound(spec.child('ref'), 'x'), 'spec.ref: Not found: "x"'],
    [field.typeInvalid(spec.child('n'), 'abc', 'must be an integer'), 'spec.n: Invalid value: "abc": must be an integer'],
    [field.internalError(spec, new Error('boom')), 'spec: Internal error: boom'],
    [field.required(null, ''), '<nil>: Required value'],
  ])('%s', (err, expected) => {
    expect(err.toString()).toBe(expected);
  });

  it('carries type, field, badValue and detail', () => {
    const err = field.invalid(spec.child('parallelism'), -1, 'must be greater than or equal to 0');
    expect(err).toMatchObject({
      type: FieldErrorType.Invalid,
      field: 'spec.parallelism',
      badValue: -1,
      detail: 'must be greater than or equal to 0',
    });
    expect(err.errorBody()).toBe('Invalid value: -1: must be greater than or equal to 0');
    expect(field.required(spec, '').type).toBe('FieldValueRequired');
    expect(field.internalError(spec, 'x').type).toBe('InternalError');
  });
});

describe('toAggregate (ErrorList.ToAggregate().Error())', () => {
  it('is undefined for no errors', () => {
    expect(field.toAggregate([])).toBeUndefined();
  });

  it('prints one error without brackets', () => {
    expect(field.toAggregate([field.required(spec.child('a'), '')])).toBe('spec.a: Required value');
  });

  it('prints several in brackets, joined by ", ", without duplicates', () => {
    const errs = [field.required(spec.child('a'), ''), field.invalid(spec.child('b'), 1, 'bad'), field.required(spec.child('a'), '')];
    expect(field.toAggregate(errs)).toBe('[spec.a: Required value, spec.b: Invalid value: 1: bad]');
  });

  it('prints a list of duplicates as the one message', () => {
    expect(field.toAggregate([field.required(spec, ''), field.required(spec, '')])).toBe('spec: Required value');
  });
});

describe('enum fields', () => {
  const ops = ['In', 'NotIn'];

  it('refuses a value not among the supported ones, naming them', () => {
    expect(field.validateEnum(spec.child('operator'), 'In', ops)).toEqual([]);
    expect(field.validateEnum(spec.child('operator'), 'Gt', ops).map(String)).toEqual(['spec.operator: Unsupported value: "Gt": supported values: "In", "NotIn"']);
  });

  it('requires a value when the field must be set, listing the valid values as %q of a slice', () => {
    expect(field.validateRequiredEnum(spec.child('operator'), '', ops).map(String)).toEqual(['spec.operator: Required value: valid values: ["In" "NotIn"]']);
    expect(field.validateRequiredEnum(spec.child('operator'), 'NotIn', ops)).toEqual([]);
    expect(field.validateEnum(spec.child('operator'), '', ops)).toHaveLength(1);
  });
});
