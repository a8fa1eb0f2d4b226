import {
  checkFieldSelectorFields,
  escapeFieldValue,
  fieldLabelNotSupported,
  fieldSelectorFields,
  fieldSelectorFromSet,
  fieldsEverything,
  fieldsNothing,
  parseAndTransformFieldSelector,
  parseFieldSelector,
  unescapeFieldValue,
} from './fields';
import { SelectorError } from './selector-error';

function parseError(selector: string): string {
  try {
    parseFieldSelector(selector);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(selector)} not to parse`);
}

describe('parseFieldSelector', () => {
  it.each([
    ['metadata.name=x,status.phase!=Running', 'metadata.name=x,status.phase!=Running'],
    ['status.phase!=Running,metadata.name=x', 'metadata.name=x,status.phase!=Running'],
    ['a==b', 'a=b'],
    ['a=', 'a='],
    ['', ''],
    ['a=b,,c=d', 'a=b,c=d'],
    ['a=b\\=c', 'a=b\\=c'],
    ['a=b\\,c,d=e', 'a=b\\,c,d=e'],
    ['a=b\\\\c', 'a=b\\\\c'],
  ])('parses %j and prints %j', (input, printed) => {
    expect(parseFieldSelector(input).toString()).toBe(printed);
  });

  it.each([
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('rejects %j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('unescapes values', () => {
    expect(parseFieldSelector('a=b\\,c').requirements()).toEqual([{ field: 'a', operator: '=', value: 'b,c' }]);
    expect(parseFieldSelector('a!=x\\=y\\\\').requirements()).toEqual([{ field: 'a', operator: '!=', value: 'x=y\\' }]);
  });

  it('keeps whitespace, as Kubernetes does', () => {
    expect(fieldSelectorFields(parseFieldSelector(' metadata.name = x'))).toEqual([' metadata.name ']);
  });
});

describe('matching a field set', () => {
  const pod = { 'metadata.name': 'x', 'metadata.namespace': 'ns', 'status.phase': 'Pending' };

  it('matches = and != on values, a missing field being the empty string', () => {
    expect(parseFieldSelector('metadata.name=x,status.phase!=Running').matches(pod)).toBe(true);
    expect(parseFieldSelector('metadata.name=x,status.phase!=Pending').matches(pod)).toBe(false);
    expect(parseFieldSelector('metadata.name==y').matches(pod)).toBe(false);
    expect(parseFieldSelector('spec.nodeName=').matches(pod)).toBe(true);
    expect(parseFieldSelector('spec.nodeName!=').matches(pod)).toBe(false);
    expect(parseFieldSelector('').matches(pod)).toBe(true);
  });

  it('everything and nothing', () => {
    expect(fieldsEverything().empty()).toBe(true);
    expect(parseFieldSelector('').empty()).toBe(true);
    expect(parseFieldSelector('a=b').empty()).toBe(false);
    expect(fieldsNothing().matches({})).toBe(false);
  });

  it('reports the value an exact match requires', () => {
    const s = parseFieldSelector('metadata.name=foo,spec.nodeName!=');
    expect(s.requiresExactMatch('metadata.name')).toBe('foo');
    expect(s.requiresExactMatch('spec.nodeName')).toBeUndefined();
    expect(s.requiresExactMatch('other')).toBeUndefined();
  });

  it('builds a selector from a set', () => {
    expect(fieldSelectorFromSet({ 'metadata.name': 'a,b' }).toString()).toBe('metadata.name=a\\,b');
    expect(fieldSelectorFromSet({ a: '1', b: '2' }).matches({ a: '1', b: '2' })).toBe(true);
  });
});

describe('field labels', () => {
  it('lists the field names a selector uses, once each', () => {
    expect(fieldSelectorFields(parseFieldSelector('b=1,a=2,a!=3'))).toEqual(['a', 'b']);
    expect(fieldSelectorFields(parseFieldSelector(''))).toEqual([]);
  });

  it('rejects unsupported labels with Kubernetes message', () => {
    const supported = ['metadata.name', 'metadata.namespace'];
    expect(() => checkFieldSelectorFields(parseFieldSelector('metadata.name=x'), supported)).not.toThrow();
    expect(() => checkFieldSelectorFields(parseFieldSelector('metadata.name=x,foo=bar'), supported)).toThrow(new SelectorError('field label not supported: foo'));
    expect(fieldLabelNotSupported('spec.x')).toBe('field label not supported: spec.x');
  });

  it('transforms labels and drops terms mapped to nothing', () => {
    const s = parseAndTransformFieldSelector('metadata.name=x,spec.host=n1', (f, v) => (f === 'spec.host' ? ['spec.nodeName', v] : ['', '']));
    expect(s.toString()).toBe('spec.nodeName=n1');
    expect(parseAndTransformFieldSelector('metadata.name=x', () => ['', '']).empty()).toBe(true);
    expect(() =>
      parseAndTransformFieldSelector('foo=bar', (f) => {
        throw new SelectorError(fieldLabelNotSupported(f));
      }),
    ).toThrow('field label not supported: foo');
  });
});

describe('escaping', () => {
  it('escapes and unescapes backslash, comma and equals', () => {
    expect(escapeFieldValue('a\\b,c=d')).toBe('a\\\\b\\,c\\=d');
    expect(unescapeFieldValue('a\\\\b\\,c\\=d')).toBe('a\\b,c=d');
    expect(unescapeFieldValue('plain')).toBe('plain');
    expect(() => unescapeFieldValue('a,b')).toThrow('invalid field selector: unescaped character in value: 44');
  });
});
