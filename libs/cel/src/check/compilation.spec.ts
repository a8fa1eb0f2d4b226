// Kubernetes 1.28's compilation cases (TestCelCompilation) as data: a schema node, its rules,
// and for each rule what compiling it when the CRD is written gives (no error, or an error
// whose detail contains the text).
import { field } from '@plinth/machinery';
import { validateRuleDefinitions } from '../rules';
import { JSONSchemaProps, ValidationRule } from '../schema';

const cases: { name: string; schema: JSONSchemaProps; rules: ValidationRule[]; want: (string | null)[] }[] = [
  { name: 'valid object', schema: { type: 'object', properties: { minReplicas: { type: 'integer' }, maxReplicas: { type: 'integer' } } }, rules: [{ rule: 'self.minReplicas < self.maxReplicas' }], want: [null] },
  { name: 'valid for string', schema: { type: 'string' }, rules: [{ rule: 'self.startsWith("s")' }], want: [null] },
  { name: 'valid for byte', schema: { type: 'string', format: 'byte' }, rules: [{ rule: 'string(self).endsWith("s")' }], want: [null] },
  { name: 'valid for boolean', schema: { type: 'boolean' }, rules: [{ rule: 'self == true' }], want: [null] },
  { name: 'valid for integer', schema: { type: 'integer' }, rules: [{ rule: 'self > 0' }], want: [null] },
  { name: 'valid for number', schema: { type: 'number' }, rules: [{ rule: 'self > 1.0' }], want: [null] },
  { name: 'valid nested object of object', schema: { type: 'object', properties: { nestedObj: { type: 'object', properties: { val: { type: 'integer' } } } } }, rules: [{ rule: 'self.nestedObj.val == 10' }], want: [null] },
  { name: 'valid nested object of array', schema: { type: 'object', properties: { nestedObj: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } }, rules: [{ rule: 'size(self.nestedObj[0]) == 10' }], want: [null] },
  { name: 'valid with x-kubernetes-int-or-string', schema: { type: 'object', properties: { val: { 'x-kubernetes-int-or-string': true } } }, rules: [{ rule: "(type(self.val) == int && self.val == 1) || (type(self.val) == string && self.val == '1')" }], want: [null] },
  { name: 'valid for map', schema: { type: 'object', additionalProperties: { type: 'boolean' } }, rules: [{ rule: 'size(self) > 0' }], want: [null] },
  { name: 'invalid checking for number', schema: { type: 'number' }, rules: [{ rule: 'size(self) == 10' }], want: ['compilation failed'] },
  { name: 'compilation failure', schema: { type: 'integer' }, rules: [{ rule: 'size(self) == 10' }], want: ['compilation failed'] },
  {
    name: 'valid for escaping',
    schema: { type: 'object', properties: { namespace: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, if: { type: 'integer' }, self: { type: 'integer' } } },
    rules: [{ rule: 'size(self.__namespace__[0]) == 10' }, { rule: 'self.__if__ == 10' }, { rule: 'self.self == 10' }],
    want: [null, null, null],
  },
  {
    name: 'invalid for escaping',
    schema: { type: 'object', properties: { namespace: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, if: { type: 'integer' }, self: { type: 'integer' } } },
    rules: [{ rule: 'size(self.namespace[0]) == 10' }, { rule: 'self.if == 10' }, { rule: 'self == 10' }],
    want: ["undefined field 'namespace'", "undefined field 'if'", 'found no matching overload'],
  },
  { name: 'transition rule identified', schema: { type: 'integer' }, rules: [{ rule: 'self > 0' }, { rule: 'self >= oldSelf' }], want: [null, null] },
  { name: 'expression must evaluate to bool', schema: { type: 'object' }, rules: [{ rule: '42' }], want: ['must evaluate to a bool'] },
  { name: 'messageExpression inclusion', schema: { type: 'string' }, rules: [{ rule: "self.startsWith('s')", messageExpression: `"scoped field should start with 's'"` }], want: [null] },
  { name: 'messageExpression must evaluate to a string', schema: { type: 'integer' }, rules: [{ rule: 'self == 5', messageExpression: '42' }], want: ['must evaluate to a string'] },
  { name: 'messageExpression syntax error', schema: { type: 'number' }, rules: [{ rule: 'self < 32.0', messageExpression: '"abc' }], want: ['messageExpression compilation failed'] },
  { name: 'modified expressions may not use CEL environment features planned to be added in future releases', schema: { type: 'object' }, rules: [{ rule: "fakeFunction('abc') == 'ABC'" }], want: ["undeclared reference to 'fakeFunction'"] },
];

describe('compilation as Kubernetes compiles rules when a CRD is written', () => {
  it.each(cases)('$name', ({ schema, rules, want }) => {
    const node = { ...schema, 'x-kubernetes-validations': rules };
    const path = field.newPath('openAPIV3Schema', 'properties').key('x');
    const errs = validateRuleDefinitions({ type: 'object', properties: { x: node } }, field.newPath('openAPIV3Schema')).map(String);
    want.forEach((contains, i) => {
      const prefix = path.child('x-kubernetes-validations').index(i).toString();
      const own = errs.filter((e) => e.startsWith(`${prefix}.`));
      if (contains === null) expect(own).toEqual([]);
      else expect(own.some((e) => e.includes(contains))).toBe(true);
    });
  });
});
