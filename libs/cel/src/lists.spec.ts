import { schemaDeclType } from './check/decl-type';
import { CelValue, isCelList, isCelMap } from '@bufbuild/cel';
import { compileExpression } from './program';
import { validateRules } from './rules';
import { JSONSchemaProps } from './schema';
import { toCelValue } from './values';

const port: JSONSchemaProps = { type: 'object', properties: { name: { type: 'string' }, 'proto-col': { type: 'string' }, port: { type: 'integer' } } };
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
    names: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    atomic: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'integer' } },
    plain: { type: 'array', items: { type: 'integer' } },
    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto-col'], items: port },
  },
};

const self = {
  set: [1, 2, 3],
  names: ['a', 'b'],
  atomic: [1, 2, 3],
  plain: [1, 2, 3],
  ports: [
    { name: 'http', 'proto-col': 'TCP', port: 80 },
    { name: 'dns', 'proto-col': 'UDP', port: 53 },
  ],
};
const old = {
  set: [3, 1, 2],
  names: ['b', 'a'],
  atomic: [3, 2, 1],
  plain: [3, 2, 1],
  ports: [
    { name: 'dns', 'proto-col': 'UDP', port: 53 },
    { name: 'http', 'proto-col': 'TCP', port: 80 },
  ],
};

// plain turns a CEL result into JSON-like data for comparison.
function plain(v: CelValue): unknown {
  if (isCelList(v)) return [...v].map(plain);
  if (isCelMap(v)) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  if (typeof v === 'bigint') return Number(v);
  return v;
}

const evaluate = (expression: string) =>
  plain(compileExpression(expression, ['self', 'oldSelf'], { self: schemaDeclType(schema, false, 'selfType0') }).evaluate({ self: toCelValue(self, schema), oldSelf: toCelValue(old, schema) }));

describe('list-type set and map semantics', () => {
  const cases: { name: string; expression: string; want: unknown }[] = [
    { name: 'set equality ignores order', expression: 'self.set == oldSelf.set', want: true },
    { name: 'set equality against a literal ignores order', expression: 'self.set == [3, 2, 1]', want: true },
    { name: 'set inequality ignores order', expression: 'self.set != [2, 3, 1]', want: false },
    { name: 'set equality compares the elements', expression: 'self.set == [1, 2, 4]', want: false },
    { name: 'set equality compares the sizes', expression: 'self.set == [1, 2]', want: false },
    { name: 'a literal on the left compares in order', expression: '[3, 2, 1] == self.set', want: false },
    { name: 'string sets', expression: "self.names == ['b', 'a'] && self.names != ['a', 'c']", want: true },
    { name: 'atomic lists compare in order', expression: 'self.atomic == oldSelf.atomic', want: false },
    { name: 'lists without a list type compare in order', expression: 'self.plain == oldSelf.plain', want: false },
    { name: 'set union keeps the left order and appends new elements', expression: 'self.set + [4, 1, 5, 4]', want: [1, 2, 3, 4, 5] },
    { name: 'set union of two sets', expression: 'oldSelf.set + self.set', want: [3, 1, 2] },
    { name: 'a union is a set', expression: 'self.set + [4] == [4, 3, 2, 1]', want: true },
    { name: 'atomic lists concatenate', expression: 'self.atomic + [1]', want: [1, 2, 3, 1] },
    { name: 'a literal on the left concatenates', expression: '[1] + self.set', want: [1, 1, 2, 3] },
    { name: 'map list equality compares by key', expression: 'self.ports == oldSelf.ports', want: true },
    {
      name: 'map list equality looks each element of the right operand up by key, as Kubernetes',
      expression: "self.ports == oldSelf.ports.map(p, p.name == 'dns' ? p : self.ports[1])",
      want: true,
    },
    {
      name: 'map list merge overwrites in place and appends new keys',
      expression: 'self.ports + oldSelf.ports.filter(p, p.port == 80) + self.ports.filter(p, p.port == 53)',
      want: [
        { name: 'http', proto__dash__col: 'TCP', port: 80 },
        { name: 'dns', proto__dash__col: 'UDP', port: 53 },
      ],
    },
    { name: 'a merge keeps the size when every key exists', expression: 'size(self.ports + oldSelf.ports)', want: 2 },
    { name: 'a merge appends elements with new keys', expression: 'size(self.ports.filter(p, p.port == 80) + oldSelf.ports.filter(p, p.port == 53))', want: 2 },
    { name: 'whole objects compare their set and map lists without order', expression: 'self.set == oldSelf.set && self.ports == oldSelf.ports && self != oldSelf', want: true },
    { name: 'membership is unchanged', expression: '2 in self.set && !(4 in self.set)', want: true },
  ];
  it.each(cases)('$name', ({ expression, want }) => {
    expect(evaluate(expression)).toEqual(want);
  });

  it('ignores the order of set and map lists in whole-object equality', () => {
    const rules: JSONSchemaProps = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { set: schema.properties?.set as JSONSchemaProps, ports: schema.properties?.ports as JSONSchemaProps } } },
      'x-kubernetes-validations': [{ rule: 'self.spec == oldSelf.spec', message: 'spec is immutable' }],
    };
    const spec = { set: self.set, ports: self.ports };
    expect(validateRules(rules, { spec }, { spec: { set: old.set, ports: old.ports } }).map(String)).toEqual([]);
    const immutable = ['<nil>: Invalid value: "object": spec is immutable'];
    expect(validateRules(rules, { spec }, { spec: { set: [1, 2], ports: old.ports } }).map(String)).toEqual(immutable);
    const changedPort = [old.ports[0], { ...old.ports[1], port: 8080 }];
    expect(validateRules(rules, { spec }, { spec: { set: old.set, ports: changedPort } }).map(String)).toEqual(immutable);
    const otherProtocol = [old.ports[0], { ...old.ports[1], 'proto-col': 'UDP' }];
    expect(validateRules(rules, { spec }, { spec: { set: old.set, ports: otherProtocol } }).map(String)).toEqual(immutable);
  });
});
