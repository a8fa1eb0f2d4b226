// Rules Kubernetes 1.28 refuses when a CRD is written (compilation failed, in cel-go's words)
// and rules it accepts, as data: the rule at the root of a schema, the message's first line.
import { field } from '@plinth/machinery';
import { validateRuleDefinitions } from '../rules';
import { JSONSchemaProps } from '../schema';

const schema = (rule: string): JSONSchemaProps => ({
  type: 'object',
  properties: {
    s: { type: 'string', maxLength: 10 },
    i: { type: 'integer' },
    d: { type: 'number' },
    ios: { 'x-kubernetes-int-or-string': true },
    ints: { type: 'array', maxItems: 10, items: { type: 'integer' } },
    strs: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } },
    m: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 10 } },
    o: { type: 'object', properties: { a: { type: 'string', maxLength: 10 } } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    ts: { type: 'string', format: 'date-time' },
    dur: { type: 'string', format: 'duration' },
  },
  'x-kubernetes-validations': [{ rule }],
});

const firstLine = (rule: string): string | null => {
  const errs = validateRuleDefinitions(schema(rule), field.newPath('openAPIV3Schema')).map(String);
  if (errs.length === 0) return null;
  const text = errs[0];
  const at = text.indexOf('FieldPath:""}: ');
  return (at >= 0 ? text.slice(at + 'FieldPath:""}: '.length) : text).split('\n')[0];
};

describe('type checking when a CRD is written', () => {
  it.each([
    ['self.s == 201', "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(string, int)'"],
    ['self.i == 1.0', "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, double)'"],
    ['self.i < 1.5', "compilation failed: ERROR: <input>:1:8: found no matching overload for '_<_' applied to '(int, double)'"],
    ['1 == 1u', "compilation failed: ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, uint)'"],
    ['2 < 2.5', "compilation failed: ERROR: <input>:1:3: found no matching overload for '_<_' applied to '(int, double)'"],
    ['self.s == null', "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(string, null)'"],
    ['self.ints.sum() == 0 && self.strs.sum() == 0', "compilation failed: ERROR: <input>:1:38: found no matching overload for 'sum' applied to 'list(string).()'"],
    ["self.o == {'a': 'b'}", /^compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '\(selfType\d+\.o, map\(string, string\)\)'$/],
    ["self.o['a'] == 'b'", /^compilation failed: ERROR: <input>:1:\d+: found no matching overload for '_\[_\]' applied to '\(selfType\d+\.o, string\)'$/],
    ["{'a': 1, 'b': 'c'}.size() == 2", "compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'string'"],
    ["[1, 'a'].size() == 2", "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'"],
    ['has(self.free.x)', "compilation failed: ERROR: <input>:1:4: undefined field 'x'"],
    ['self.e.spec == 1', "compilation failed: ERROR: <input>:1:7: undefined field 'spec'"],
    ["'%s'.format(['a']) == 'a'", "compilation failed: ERROR: <input>:1:12: undeclared reference to 'format' (in container '')"],
    ['self.i', 'cel expression must evaluate to a bool'],
    ['self.ios', 'cel expression must evaluate to a bool'],
    ['self.s.foo == 1', "compilation failed: ERROR: <input>:1:7: type 'string' does not support field selection"],
    ['self.i.all(x, true)', "compilation failed: ERROR: <input>:1:5: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"],
  ])('%s is refused', (rule, want) => {
    const got = firstLine(rule);
    if (typeof want === 'string') expect(got).toBe(want);
    else expect(got).toMatch(want);
  });

  it.each([
    "self.ts < timestamp('2025-01-01T00:00:00Z') && self.dur > duration('1s')",
    "type(self.ios) == string ? self.ios.matches('^[0-9]+%$') : self.ios > 0",
    "self.m.all(k, self.m[k].size() < 10) && 'a' in self.m && has(self.m.x)",
    'self.ints.map(x, x * 2) == [2] && self.ints.filter(x, x > 0).size() >= 0 && self.ints.exists_one(x, x > 4)',
    "self.e.apiVersion == 'v1' && self.e.metadata.name != '' && self.e.kind == 'Pod'",
    "self.o == self.o && self.o.a == 'x' && self.ios == dyn(1)",
    "self.strs.isSorted() && self.strs.min() == 'a' && self.ints.max() == 1 && self.strs.indexOf('a') == 0",
    "url('https://a/b').getHost() == 'a' && isURL(self.s) && self.s.find('[0-9]') == '' && self.s.split(',').size() == 1",
    "self.s.lowerAscii().upperAscii().trim().substring(1, 2).replace('a', 'b').charAt(0) == 'a'",
  ])('%s is accepted', (rule) => {
    expect(firstLine(rule)).toBeNull();
  });

  it('prints the source line and a caret under the offending character', () => {
    const errs = validateRuleDefinitions(schema('self.s == 201'), field.newPath('openAPIV3Schema')).map(String);
    expect(errs[0].endsWith("applied to '(string, int)'\n | self.s == 201\n | .......^")).toBe(true);
  });
});

describe('estimated cost when a CRD is written', () => {
  const unbounded = (rule: string): JSONSchemaProps => ({
    type: 'object',
    properties: {
      strs: { type: 'array', items: { type: 'string' } },
      ints: { type: 'array', items: { type: 'integer' } },
      m: { type: 'object', additionalProperties: { type: 'string', maxLength: 64 } },
    },
    'x-kubernetes-validations': [{ rule }],
  });
  const errors = (rule: string) => validateRuleDefinitions(unbounded(rule), field.newPath('openAPIV3Schema')).map(String);
  const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

  it.each(["self.strs.join(',') == ''", 'self.strs.isSorted()', "self.strs.max() == 'a'", 'dyn(self.ints).sum() == 0', 'type(self) == type(self)'])('%s is refused at more than 100x', (rule) => {
    expect(errors(rule)).toEqual([
      `openAPIV3Schema.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
      'openAPIV3Schema.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      `openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
    ]);
  });

  it.each(["self.m.filter(k, self.m[k].startsWith('a')).size() >= 0", 'self.ints.all(i, i > 0)', "self.m.exists(k, k == 'a')"])('%s is accepted', (rule) => {
    expect(errors(rule)).toEqual([]);
  });
});
