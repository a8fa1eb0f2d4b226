// The CEL type of each schema (Kubernetes' UnstructuredToVal): each rule must hold.
import { field } from '@plinth/machinery';
import { validateRuleDefinitions, validateRules } from './rules';
import { JSONSchemaProps } from './schema';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    ios: { type: 'array', items: { 'x-kubernetes-int-or-string': true } },
    i: { type: 'integer' },
    n: { type: 'number' },
    whole: { type: 'number' },
    flag: { type: 'boolean' },
    b: { type: 'string', format: 'byte' },
    d: { type: 'string', format: 'date' },
    t: { type: 'string', format: 'date-time' },
    dur: { type: 'string', format: 'duration' },
    m: { type: 'object', additionalProperties: { type: 'string' } },
    e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    o: { type: 'object', properties: { a: { type: 'string' }, z: { type: 'string' } } },
    l: { type: 'array', items: { type: 'integer' } },
    u: { 'x-kubernetes-preserve-unknown-fields': true },
    free: { type: 'object', additionalProperties: true },
  },
};
const value = {
  ios: [1, '50%'],
  i: 7,
  n: 2.5,
  whole: 3,
  flag: true,
  b: 'aGVsbG8=',
  d: '2024-01-02',
  t: '2024-01-02T03:04:05.123Z',
  dur: '1h30m',
  m: { a: 'x' },
  e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} },
  o: { a: 'q' },
  l: [],
  u: { a: 1, nested: { b: 'x' }, list: [1.5] },
  free: { k: { v: true } },
};

describe('CEL types of schema values', () => {
  // Schemas SchemaDeclType gives no type (no type at all, or additionalProperties: true)
  // expose nothing: a rule that reaches into them does not compile.
  it.each([
    ["has(self.u.a)", "undefined field 'u'"],
    ['self.free.k == 1', "undefined field 'k'"],
  ])('%s does not compile', (rule, message) => {
    const errs = validateRuleDefinitions({ ...schema, 'x-kubernetes-validations': [{ rule }] }, field.newPath('openAPIV3Schema')).map(String);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toContain(`compilation failed: ERROR: <input>:1:`);
    expect(errs[0]).toContain(message);
  });

  it.each([
    'type(self.ios[0]) == int && type(self.ios[1]) == string && self.ios[1] == "50%"',
    'type(self.i) == int && self.i == 7',
    'type(self.n) == double && self.n == 2.5',
    'type(self.whole) == double && self.whole == 3.0',
    'type(self.flag) == bool && self.flag',
    "type(self.b) == bytes && self.b == b'hello' && size(self.b) == 5",
    "type(self.d) == google.protobuf.Timestamp && self.d == timestamp('2024-01-02T00:00:00Z')",
    "self.t.getMilliseconds() == 123 && self.t.getHours() == 3 && self.t > self.d",
    "type(self.dur) == google.protobuf.Duration && self.dur == duration('90m') && self.dur.getMinutes() == 90",
    "type(self.m) == map && has(self.m.a) && !has(self.m.b) && 'a' in self.m && self.m['a'] == 'x'",
    "has(self.e.metadata) && self.e.metadata.name == 'p' && self.e.apiVersion == 'v1' && self.e.kind == 'Pod'",
    'has(self.o.a) && !has(self.o.z)',
    'size(self.l) == 0 && self.l == []',
  ])('%s', (rule) => {
    const withRule: JSONSchemaProps = { ...schema, 'x-kubernetes-validations': [{ rule }] };
    expect(validateRuleDefinitions(withRule, field.newPath('openAPIV3Schema')).map(String)).toEqual([]);
    expect(validateRules(withRule, value, undefined).map(String)).toEqual([]);
  });
});

describe('fields a rule cannot reach', () => {
  const preserving: JSONSchemaProps = {
    type: 'object',
    properties: {
      o: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] },
    },
  };
  it('make objects unequal though a rule cannot read them, as Kubernetes compares whole objects', () => {
    expect(validateRules(preserving, { o: { a: 'x', extra: 1 } }, { o: { a: 'x', extra: 1 } }).map(String)).toEqual([]);
    expect(validateRules(preserving, { o: { a: 'x', extra: 2 } }, { o: { a: 'x', extra: 1 } }).map(String)).toEqual(['o: Invalid value: "object": immutable']);
    expect(validateRules(preserving, { o: { a: 'x' } }, { o: { a: 'x', extra: 1 } }).map(String)).toEqual(['o: Invalid value: "object": immutable']);
  });
});
