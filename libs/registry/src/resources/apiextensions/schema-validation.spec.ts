import { JSONSchemaProps } from '@plinth/cel';
import { field } from '@plinth/machinery';
import { validateStructural } from './crd-validation';
import { applyDefaults, validateValue } from './schema-validation';

const spec = (properties: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, ...extra } },
});

// Messages are those kube-apiserver 1.28 returns for custom resources.
describe('custom resource schema validation', () => {
  const cases: { name: string; schema: JSONSchemaProps; value: Record<string, unknown>; want: string[] }[] = [
    { name: 'type', schema: spec({ replicas: { type: 'integer' } }), value: { replicas: 'x' }, want: ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'] },
    { name: 'number accepts integers', schema: spec({ ratio: { type: 'number' } }), value: { ratio: 2 }, want: [] },
    { name: 'null without nullable', schema: spec({ name: { type: 'string' } }), value: { name: null }, want: ['spec.name: Invalid value: "null": spec.name in body must be of type string: "null"'] },
    { name: 'null with nullable', schema: spec({ name: { type: 'string', nullable: true } }), value: { name: null }, want: [] },
    { name: 'null int-or-string', schema: spec({ p: { 'x-kubernetes-int-or-string': true } }), value: { p: null }, want: [] },
    { name: 'required', schema: spec({ name: { type: 'string' } }, { required: ['name'] }), value: {}, want: ['spec.name: Required value'] },
    { name: 'enum', schema: spec({ size: { type: 'string', enum: ['s', 'l'] } }), value: { size: 'm' }, want: ['spec.size: Unsupported value: "m": supported values: "s", "l"'] },
    { name: 'maximum', schema: spec({ n: { type: 'integer', maximum: 10 } }), value: { n: 11 }, want: ['spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10'] },
    { name: 'exclusive maximum', schema: spec({ n: { type: 'integer', maximum: 10, exclusiveMaximum: true } }), value: { n: 10 }, want: ['spec.n: Invalid value: 10: spec.n in body should be less than 10'] },
    { name: 'minimum', schema: spec({ n: { type: 'integer', minimum: 1 } }), value: { n: 0 }, want: ['spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 1'] },
    { name: 'exclusive minimum', schema: spec({ n: { type: 'integer', minimum: 1, exclusiveMinimum: true } }), value: { n: 1 }, want: ['spec.n: Invalid value: 1: spec.n in body should be greater than 1'] },
    { name: 'maxLength', schema: spec({ s: { type: 'string', maxLength: 3 } }), value: { s: 'abcd' }, want: ['spec.s: Too long: may not be longer than 3'] },
    { name: 'minLength', schema: spec({ s: { type: 'string', minLength: 2 } }), value: { s: 'a' }, want: ['spec.s: Invalid value: "a": spec.s in body should be at least 2 chars long'] },
    { name: 'pattern', schema: spec({ s: { type: 'string', pattern: '^[0-9]+$' } }), value: { s: 'a1' }, want: ["spec.s: Invalid value: \"a1\": spec.s in body should match '^[0-9]+$'"] },
    { name: 'pattern is searched, not anchored', schema: spec({ s: { type: 'string', pattern: '[0-9]' } }), value: { s: 'a1b' }, want: [] },
    // Go's regexp has no lookahead or backreferences: the pattern fails every value, naming why.
    {
      name: 'pattern RE2 refuses',
      schema: spec({ s: { type: 'string', pattern: '^(?=a)' } }),
      value: { s: 'a' },
      want: ["spec.s: Invalid value: \"a\": spec.s in body should match '^(?=a), but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'"],
    },
    // A backtracking RegExp takes about 2^40 steps on this value; RE2 is linear in it.
    { name: 'pattern with nested repetition', schema: spec({ s: { type: 'string', pattern: '^(a+)+$' } }), value: { s: `${'a'.repeat(40)}!` }, want: ["spec.s: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\": spec.s in body should match '^(a+)+$'"] },
    { name: 'maxItems', schema: spec({ l: { type: 'array', items: { type: 'string' }, maxItems: 1 } }), value: { l: ['a', 'b'] }, want: ['spec.l: Too many: 2: must have at most 1 items'] },
    { name: 'minItems', schema: spec({ l: { type: 'array', items: { type: 'string' }, minItems: 2 } }), value: { l: ['a'] }, want: ['spec.l: Invalid value: 1: spec.l in body should have at least 2 items'] },
    { name: 'set duplicates', schema: spec({ l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } }), value: { l: ['a', 'a'] }, want: ['spec.l[1]: Duplicate value: "a"'] },
    {
      name: 'list-map key duplicates, printed as Go prints the keys',
      schema: spec({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } } }),
      value: { l: [{ name: 'x', port: 1 }, { name: 'x', port: 2 }] },
      want: ['spec.l[1]: Duplicate value: map[string]interface {}{"name":"x"}'],
    },
    { name: 'maxProperties', schema: spec({ m: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 } }), value: { m: { a: 'x', b: 'y' } }, want: ['spec.m: Too many: 2: must have at most 1 items'] },
    { name: 'minProperties', schema: spec({ m: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 } }), value: { m: {} }, want: ['spec.m: Invalid value: 0: spec.m in body should have at least 1 properties'] },
    { name: 'format date-time', schema: spec({ t: { type: 'string', format: 'date-time' } }), value: { t: 'yesterday' }, want: ['spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"'] },
    // the type an int-or-string must have is both its types (recorded: a 1.5 answers the same)
    { name: 'int-or-string', schema: spec({ p: { 'x-kubernetes-int-or-string': true } }), value: { p: true }, want: ['spec.p: Invalid value: "boolean": spec.p in body must be of type integer,string: "boolean"'] },
    { name: 'map values', schema: spec({ m: { type: 'object', additionalProperties: { type: 'integer' } } }), value: { m: { a: 'x' } }, want: ['spec.m.a: Invalid value: "string": spec.m.a in body must be of type integer: "string"'] },
    {
      name: 'embedded resource',
      schema: spec({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
      value: { template: { metadata: { name: 'x' } } },
      want: ['spec.template.kind: Required value: must not be empty', 'spec.template.apiVersion: Required value: must not be empty'],
    },
  ];

  it.each(cases)('$name', ({ schema, value, want }) => {
    expect(validateValue(schema, { spec: value }, null).map(String)).toEqual(want);
  });

  it('fills defaults outside in', () => {
    const schema = spec({ a: { type: 'object', default: {}, properties: { b: { type: 'integer', default: 3 } } }, l: { type: 'array', items: { type: 'object', properties: { x: { type: 'string', default: 'd' } } } } });
    const object: Record<string, unknown> = { spec: { l: [{}, { x: 'set' }] } };
    applyDefaults(schema, object);
    expect(object.spec).toEqual({ a: { b: 3 }, l: [{ x: 'd' }, { x: 'set' }] });
  });

  it('drops a null that is neither nullable nor defaulted, as PruneNonNullableNullsWithoutDefaults, and defaults one that has a default', () => {
    const ios = { 'x-kubernetes-int-or-string': true };
    const schema = spec({
      p: ios,
      q: { ...ios, nullable: true },
      r: { ...ios, default: 1 },
      name: { type: 'string' },
      size: { type: 'integer', default: 3 },
      inner: { type: 'object', properties: { a: { type: 'string' } } },
      m: { type: 'object', additionalProperties: ios },
      l: { type: 'array', items: { type: 'string', default: 'x' } },
    });
    const object: Record<string, unknown> = { spec: { p: null, q: null, r: null, name: null, size: null, inner: null, m: { a: null, b: 2 }, l: [null, 'y'] } };
    applyDefaults(schema, object);
    expect(object.spec).toEqual({ q: null, r: 1, size: 3, m: { b: 2 }, l: ['x', 'y'] });
  });
});

describe('structural schemas', () => {
  const root = field.newPath('spec', 'versions').index(0).child('schema', 'openAPIV3Schema');
  const cases: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
    { name: 'a structural schema', schema: spec({ a: { type: 'string' } }), want: [] },
    { name: 'no type at the root', schema: { properties: {} }, want: ['spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root'] },
    { name: 'not an object at the root', schema: { type: 'string' }, want: ['spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root'] },
    {
      name: 'no type below',
      schema: spec({ a: { properties: {} } }),
      want: ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields'],
    },
    { name: 'array without items', schema: spec({ l: { type: 'array' } }), want: ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].items: Required value: must be specified'] },
    {
      name: 'list-type map without keys',
      schema: spec({ l: { type: 'array', items: { type: 'object', properties: {} }, 'x-kubernetes-list-type': 'map' } }),
      want: ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map'],
    },
    {
      name: 'list-type map keys',
      schema: spec({
        l: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name', 'port', 'missing'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
      }),
      want: [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].x-kubernetes-list-map-keys: Invalid value: []string{"name", "port", "missing"}: entries must all be names of item properties',
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[l].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
      ],
    },
    {
      name: 'list-type on a non-array',
      schema: spec({ s: { type: 'string', 'x-kubernetes-list-type': 'set' } }),
      want: ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[s].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified'],
    },
    {
      name: 'preserve-unknown-fields false',
      schema: spec({ o: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }),
      want: ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[o].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined'],
    },
    {
      name: 'metadata beyond name',
      schema: { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } },
      want: ['spec.versions[0].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified'],
    },
    { name: 'int-or-string without type', schema: spec({ p: { 'x-kubernetes-int-or-string': true } }), want: [] },
    {
      name: 'a default object whose field does not validate',
      schema: spec({ o: { type: 'object', default: { n: 'x' }, properties: { n: { type: 'integer' } } } }),
      want: [
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[o].default.n: Invalid value: "string": n in body must be of type integer: "string"',
      ],
    },
    {
      name: 'a default with fields its schema prunes',
      schema: spec({ o: { type: 'object', default: { a: 1, b: { c: 'x' } }, properties: { a: { type: 'integer' } } } }),
      want: ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[o].default: Invalid value: map[string]interface {}{"a":1, "b":map[string]interface {}{"c":"x"}}: must not have unknown fields'],
    },
    {
      name: 'a default that does not validate',
      schema: spec({ n: { type: 'integer', default: 'x' } }),
      want: [
        // The validator names fields relative to the default: nothing for the default itself.
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[n].default: Invalid value: "string":  in body must be of type integer: "string"',
      ],
    },
  ];

  it.each(cases)('$name', ({ schema, want }) => {
    expect(validateStructural(schema, root, true).map(String)).toEqual(want);
  });
});
