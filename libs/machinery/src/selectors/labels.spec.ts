import { newPath } from '../errors/field-path';
import { labelSelectorFromSet, labelsEverything, labelsNothing, matchLabels, parseLabelRequirements, parseLabelSelector, SelectorError } from './labels';

const nameRegex = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRegex =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function parseError(selector: string): string {
  try {
    parseLabelSelector(selector);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(selector)} not to parse`);
}

describe('parseLabelSelector', () => {
  it.each([
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['', ''],
    ['   ', ''],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x= ,z= ', 'x=,z='],
    ['!x', '!x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x==a', 'x==a'],
    [' x = a , y != b ', 'x=a,y!=b'],
    ['x\t=\na', 'x=a'],
    ['z=1,a=2', 'a=2,z=1'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['x in (,)', 'x in ()'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in(a)', 'x in (a)'],
    ['x notin (in,notin)', 'x notin (in,notin)'],
    ['in in (in)', 'in in (in)'],
    ['x=in', 'x=in'],
    ['x, y', 'x,y'],
    ['platform.io/role=worker,!platform.io/legacy', '!platform.io/legacy,platform.io/role=worker'],
  ])('parses %j and prints %j', (input, printed) => {
    expect(parseLabelSelector(input).toString()).toBe(printed);
  });

  it.each([
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${valueRegex}`],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x<a', 'unable to parse requirement: values[0]: Invalid value: "a": for \'Gt\', \'Lt\' operators, the value must be an integer'],
    ['x>99999999999999999999', 'unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for \'Gt\', \'Lt\' operators, the value must be an integer'],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": ${nameRegex}`],
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${valueRegex}`],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (a,b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x=(a)', "unable to parse requirement: found '(', expected: identifier"],
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['x not in (a)', "unable to parse requirement: found 'not', expected: in, notin, =, ==, !=, gt, lt"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['x,', "found '', expected: identifier after ','"],
    [',x', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['x=a=b', "found '=', expected: ',' or 'end of string'"],
  ])('rejects %j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('carries the field errors of an invalid requirement', () => {
    try {
      parseLabelSelector('a=-b');
      throw new Error('expected an error');
    } catch (err) {
      expect((err as SelectorError).fieldErrors.map((e) => e.field)).toEqual(['values[0][a]']);
    }
  });

  it('prefixes validation errors with a field path when given one', () => {
    expect(() => parseLabelSelector('a=-b', newPath('spec', 'selector'))).toThrow(/^unable to parse requirement: spec\.selector\.values\[0\]\[a\]: Invalid value/);
    expect(() => parseLabelSelector('-a', newPath('labelSelector'))).toThrow(/^unable to parse requirement: labelSelector: Invalid value: "-a"/);
  });

  it('returns requirements sorted by key', () => {
    expect(parseLabelRequirements('b=1,a in (y,x),c').map((r) => [r.key, r.operator, r.values])).toEqual([
      ['a', 'in', ['x', 'y']],
      ['b', '=', ['1']],
      ['c', 'exists', []],
    ]);
  });
});

describe('matching', () => {
  it.each([
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x==y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['x!=y', {}],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['x', { x: '' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['x<1', { x: '-5' }],
    ['x in (a,b)', { x: 'b' }],
    ['x notin (a)', {}],
    ['x notin (a)', { x: 'b' }],
    ['x=', { x: '' }],
    ['x in ()', { x: '' }],
  ])('%j matches %j', (selector, labels) => {
    expect(matchLabels(selector, labels)).toBe(true);
  });

  it.each([
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x>1', { x: 'a' }],
    ['x>1', {}],
    ['x<1', { x: '2' }],
    ['x in (a,b)', { x: 'c' }],
    ['x in (a,b)', {}],
    ['x notin (a)', { x: 'a' }],
    ['x=', {}],
  ])('%j does not match %j', (selector, labels) => {
    expect(matchLabels(selector, labels)).toBe(false);
  });

  it('treats inherited properties as absent', () => {
    expect(matchLabels('toString', {})).toBe(false);
  });

  it('reports the single value a selector requires', () => {
    const s = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5,e');
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((l) => s.requiresExactMatch(l))).toEqual(['1', '2', undefined, undefined, undefined, undefined]);
  });
});

describe('everything, nothing and sets', () => {
  it('everything is empty and matches all; nothing matches none', () => {
    expect(labelsEverything().empty()).toBe(true);
    expect(labelsEverything().matches({ a: 'b' })).toBe(true);
    expect(parseLabelSelector('').empty()).toBe(true);
    expect(labelsNothing().empty()).toBe(false);
    expect(labelsNothing().matches({})).toBe(false);
    expect(labelsNothing().requirements()).toBeUndefined();
  });

  it('labelSelectorFromSet selects exactly the set, sorted by key', () => {
    const s = labelSelectorFromSet({ b: '2', a: '1' });
    expect(s.toString()).toBe('a=1,b=2');
    expect(s.matches({ a: '1', b: '2', c: '3' })).toBe(true);
    expect(s.matches({ a: '1' })).toBe(false);
    expect(labelSelectorFromSet(undefined).empty()).toBe(true);
  });

  it('add keeps requirements sorted', () => {
    const [c] = parseLabelRequirements('c');
    expect(parseLabelSelector('d=1,a').add(c).toString()).toBe('a,c,d=1');
  });
});
