import { findPreexistingExpressions, ruleRuntimeCost, validateRuleDefinitions, validateRules } from './rules';
import { JSONSchemaProps } from './schema';
import { field } from '@plinth/machinery';
import { escapePropertyName, unescapePropertyName } from './escaping';

const spec = (validations: JSONSchemaProps['x-kubernetes-validations'], properties: Record<string, JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        minReplicas: { type: 'integer' },
        name: { type: 'string' },
        'x-y': { type: 'string' },
        tags: { type: 'array', items: { type: 'integer' } },
        url: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        timeout: { type: 'string', format: 'duration' },
        waits: { type: 'array', items: { type: 'string', format: 'duration' } },
        ...properties,
      },
      'x-kubernetes-validations': validations,
    },
  },
});

const messages = (schema: JSONSchemaProps, value: unknown, old?: unknown) => validateRules(schema, value, old).map(String);

describe('validation rules', () => {
  const cases: { name: string; rule: string; spec: Record<string, unknown>; want: string[]; message?: string; reason?: string; fieldPath?: string; messageExpression?: string }[] = [
    { name: 'passes', rule: 'self.replicas < 10', spec: { replicas: 3 }, want: [] },
    { name: 'fails with the default message', rule: 'self.replicas < 10', spec: { replicas: 30 }, want: ['spec: Invalid value: "object": failed rule: self.replicas < 10'] },
    { name: 'fails with the rule message', rule: 'self.replicas < 10', message: 'must be less than 10', spec: { replicas: 30 }, want: ['spec: Invalid value: "object": must be less than 10'] },
    {
      name: 'messageExpression',
      rule: 'self.replicas < 10',
      messageExpression: "'replicas ' + string(self.replicas) + ' too many'",
      spec: { replicas: 30 },
      want: ['spec: Invalid value: "object": replicas 30 too many'],
    },
    { name: 'forbidden reason', rule: 'self.replicas < 10', message: 'no', reason: 'FieldValueForbidden', spec: { replicas: 30 }, want: ['spec: Forbidden: no'] },
    { name: 'required reason', rule: 'has(self.name)', message: 'name please', reason: 'FieldValueRequired', spec: {}, want: ['spec: Required value: name please'] },
    { name: 'fieldPath', rule: 'self.replicas < 10', message: 'm', fieldPath: '.replicas', spec: { replicas: 30 }, want: ['spec.replicas: Invalid value: "object": m'] },
    { name: 'escaped names', rule: "self.x__dash__y == 'a'", spec: { 'x-y': 'b' }, want: ['spec: Invalid value: "object": failed rule: self.x__dash__y == \'a\''] },
    { name: 'missing field is an evaluation error', rule: 'self.replicas > 0', spec: {}, want: ['spec: Invalid value: "object": no such key: replicas evaluating rule: self.replicas > 0'] },
    { name: 'list library', rule: 'self.tags.isSorted() && self.tags.sum() == 6 && self.tags.max() == 3 && self.tags.indexOf(2) == 1', spec: { tags: [1, 2, 3] }, want: [] },
    { name: 'regex library', rule: "self.name.find('[0-9]+') == '42' && self.name.findAll('[a-z]').size() == 3", spec: { name: 'abc42' }, want: [] },
    { name: 'url library', rule: "isURL(self.url) && url(self.url).getHost() == 'example.com:8080' && url(self.url).getScheme() == 'https'", spec: { url: 'https://example.com:8080/x' }, want: [] },
    { name: 'date-time is a timestamp', rule: "self.at < timestamp('2025-01-01T00:00:00Z') && self.at.getFullYear() == 2024", spec: { at: '2024-06-01T10:00:00Z' }, want: [] },
    {
      name: 'list library over durations',
      rule: "self.waits.sum() == duration('3m') && self.waits.max() == duration('2m') && self.waits.isSorted()",
      spec: { waits: ['1m', '2m'] },
      want: [],
    },
    { name: 'min of an empty list', rule: 'self.tags.min() > 0', spec: { tags: [] }, want: ['spec: Invalid value: "object": min called on empty list evaluating rule: self.tags.min() > 0'] },
    { name: 'duration is a duration', rule: "self.timeout > duration('1m') && self.timeout == duration('90s')", spec: { timeout: '1m30s' }, want: [] },
    { name: 'comprehension', rule: 'self.tags.all(t, t > 0)', spec: { tags: [1, -2] }, want: ['spec: Invalid value: "object": failed rule: self.tags.all(t, t > 0)'] },
    { name: 'a null field is absent to has()', rule: '!has(self.name)', spec: { name: null }, want: [] },
    { name: 'a null field is no such key', rule: "self.name == 'a'", spec: { name: null }, want: ['spec: Invalid value: "object": no such key: name evaluating rule: self.name == \'a\''] },
    { name: 'integer overflow in kube-apiserver\'s words', rule: 'self.replicas * 9223372036854775807 > 0', spec: { replicas: 2 }, want: ['spec: Invalid value: "object": integer overflow evaluating rule: self.replicas * 9223372036854775807 > 0'] },
  ];
  it.each(cases)('$name', (c) => {
    const schema = spec([{ rule: c.rule, message: c.message, reason: c.reason, fieldPath: c.fieldPath, messageExpression: c.messageExpression }]);
    expect(messages(schema, { spec: c.spec })).toEqual(c.want);
  });

  it('reports a rule at the root at the nil path, as Kubernetes prints it', () => {
    const schema: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a')", message: 'name must start with a' }] };
    expect(validateRuleDefinitions(schema, field.newPath('openAPIV3Schema'))).toEqual([]);
    expect(messages(schema, { metadata: { name: 'bob', labels: { a: 'b' } } })).toEqual(['<nil>: Invalid value: "object": name must start with a']);
    expect(validateRuleDefinitions({ ...schema, 'x-kubernetes-validations': [{ rule: 'self.metadata.labels.size() > 0' }] }, field.newPath('openAPIV3Schema')).map(String)[0]).toContain(
      "undefined field 'labels'",
    );
  });

  it('fails validation with a rule that never compiled instead of crashing', () => {
    expect(messages(spec([{ rule: 'self.replicas +' }]), { spec: {} })[0]).toMatch(/^spec: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  });

  it('evaluates transition rules only when an old value exists', () => {
    const schema = spec([{ rule: 'self.replicas >= oldSelf.replicas', message: 'cannot scale down' }]);
    expect(messages(schema, { spec: { replicas: 1 } })).toEqual([]);
    expect(messages(schema, { spec: { replicas: 1 } }, { spec: { replicas: 3 } })).toEqual(['spec: Invalid value: "object": cannot scale down']);
  });

  it('accepts x-platform-validations as a twin name', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { n: { type: 'integer', 'x-platform-validations': [{ rule: 'self < 10', message: 'must be less than 10' }] } } };
    expect(messages(schema, { n: 12 })).toEqual(['n: Invalid value: "integer": must be less than 10']);
  });

  it('sizes a large list without exhausting the stack', () => {
    const schema: JSONSchemaProps = { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x >= 0)' }] };
    const value = Array.from({ length: 150_000 }, (_, i) => i);
    expect(validateRules({ type: 'object', properties: { l: schema } }, { l: value }, undefined).map(String)).toEqual([]);
  });

  it('stops a rule whose cost exceeds the per-call limit', () => {
    const schema: JSONSchemaProps = { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, self.all(c, a + b + c > 0)))' }] };
    const value = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(validateRules({ type: "object", properties: { l: schema } }, { l: value }, undefined).map(String)).toEqual([
      `l: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(a, self.all(b, self.all(c, a + b + c > 0)))`,
    ]);
  });

  it('charges what ran: the operand a short-circuit skips and the iterations a comprehension stops before cost nothing', () => {
    // matches costs ceil((1 + 10_000) * 0.1) * ceil(4_000 * 0.25) = 1_001_000, over the per-call limit
    const pattern = 'a'.repeat(3_999) + '$';
    const rule = `self.a == 1 || self.s.matches('${pattern}')`;
    const shortCircuit: JSONSchemaProps = { type: 'object', properties: { a: { type: 'integer' }, s: { type: 'string' } }, 'x-kubernetes-validations': [{ rule }] };
    const s = 'b'.repeat(10_000);
    expect(validateRules(shortCircuit, { a: 1, s }, undefined).map(String)).toEqual([]);
    expect(validateRules(shortCircuit, { a: 2, s }, undefined).map(String)).toEqual([
      `<nil>: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ]);
    // the inner alls over 200 * 200 pairs cost 320_000-odd: exists stops after the first item,
    // where all would run 200 of them (the per-call limit test below)
    const nested: JSONSchemaProps = { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.exists(a, self.all(b, self.all(c, a + b + c > 0)))' }] };
    const items = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(validateRules({ type: 'object', properties: { l: nested } }, { l: items }, undefined).map(String)).toEqual([]);
    expect(ruleRuntimeCost(nested, items, nested['x-kubernetes-validations']?.[0].rule ?? '')).toBe(361_011);
  });

  it('charges a messageExpression to the object as a rule, stopping validation when it costs too much', () => {
    const pattern = 'a'.repeat(3_999) + '$';
    const messageExpression = `self.matches('${pattern}') ? 'matched' : ' no match '`;
    const schema: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: "self == 'a'", messageExpression }, { rule: "self == 'b'" }] } } };
    expect(validateRules(schema, { s: 'b'.repeat(9_000) }, undefined).map(String)).toEqual(['s: Invalid value: "string": no match', `s: Invalid value: "string": failed rule: self == 'b'`]);
    expect(validateRules(schema, { s: 'b'.repeat(10_000) }, undefined).map(String)).toEqual([
      `s: Invalid value: "string": no further validation rules will be run due to call cost exceeds limit for messageExpression: "${messageExpression}"`,
    ]);
  });

  it('costs a regular expression by the length of the string and of the pattern, as Kubernetes', () => {
    // ceil((1 + 9_000) * 0.1) * ceil(4_000 * 0.25) + 1 = 901_001, under the per-call limit of 1_000_000; 10_000 characters cost 1_001_001.
    const pattern = 'a'.repeat(3_999) + '$';
    const schema: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: `self.matches('${pattern}')` }] } } };
    expect(validateRules(schema, { s: 'b'.repeat(9_000) }, undefined).map(String)).toEqual(['s: Invalid value: "string": failed rule: self.matches(\'' + pattern + "')"]);
    expect(validateRules(schema, { s: 'b'.repeat(10_000) }, undefined).map(String)).toEqual([`s: Invalid value: "string": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.matches('${pattern}')`]);
    const find: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: `self.find('${pattern}') == '' && self.findAll('${pattern}').size() == 0` }] } } };
    expect(validateRules(find, { s: 'b'.repeat(4_000) }, undefined).map(String)).toEqual([]);
    expect(validateRules(find, { s: 'b'.repeat(5_000) }, undefined).map(String)[0]).toContain('call cost exceeds limit for rule');
  });

  it('costs list and string library calls by the size they walk, as Kubernetes', () => {
    // sum traverses the list: its estimate grows with maxItems.
    const sum = (maxItems: number): JSONSchemaProps => ({
      type: 'object',
      properties: { l: { type: 'array', maxItems, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.sum() >= 0' }] } },
    });
    expect(validateRuleDefinitions(sum(9_000_000), field.newPath('s')).map(String)).toEqual([]);
    expect(validateRuleDefinitions(sum(11_000_000), field.newPath('s')).map(String)[0]).toMatch(/^s\.properties\[l\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of 1\.100000x /);
    expect(validateRules(sum(100), { l: new Array(100).fill(1) }, undefined).map(String)).toEqual([]);
    const lower: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.lowerAscii() != ''" }] } } };
    // lowerAscii costs ceil(len * 0.1): 10_000_000 characters cost 1_000_000 + 2.
    expect(validateRules(lower, { s: 'A'.repeat(1_000) }, undefined).map(String)).toEqual([]);
    expect(validateRules(lower, { s: 'A'.repeat(10_000_000) }, undefined).map(String)).toEqual([`s: Invalid value: "string": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.lowerAscii() != ''`]);
  });

  it('stops every rule once the runtime budget of the object is spent, as Kubernetes', () => {
    // Each call costs ceil((1 + 10_000) * 0.1) * ceil(400 * 0.25) + 1 = 100_101; the 100th exceeds 10_000_000.
    const pattern = 'a'.repeat(399) + '$';
    const schema: JSONSchemaProps = { type: 'object', properties: { l: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: `!self.matches('${pattern}')` }] } } } };
    const value = Array.from({ length: 120 }, () => 'b'.repeat(10_000));
    expect(validateRules(schema, { l: value.slice(0, 99) }, undefined).map(String)).toEqual([]);
    expect(validateRules(schema, { l: value }, undefined).map(String)).toEqual([
      'l[99]: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });

  it('reports compile errors of a schema by rule path', () => {
    const schema = spec([{ rule: 'self.replicas +' }, { rule: 'foo > 1' }]);
    const errs = validateRuleDefinitions(schema, field.newPath('spec', 'validation', 'openAPIV3Schema')).map(String);
    expect(errs).toHaveLength(2);
    expect(errs[0]).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.replicas \+", .*compilation failed: ERROR: <input>:1:\d+: Syntax error: .*\n \| self\.replicas \+\n \| \.+\^$/);
    expect(errs[1]).toMatch(/x-kubernetes-validations\[1\]\.rule: .*compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' \(in container ''\)\n \| foo > 1\n \| \^$/);
  });
});

describe('rule definitions', () => {
  const root = field.newPath('spec', 'validation', 'openAPIV3Schema');
  const check = (schema: JSONSchemaProps) => validateRuleDefinitions(schema, root).map(String);

  it('compiles the rules a stored CRD already holds in the full environment, others in the compatible one', () => {
    const crossRule = { rule: 'self.replicas < 1.5' };
    const crossMessage = { rule: 'self.replicas > 0', messageExpression: "self.replicas < 1.5 ? 'few' : 'many'" };
    const stored = findPreexistingExpressions([
      undefined,
      { type: 'object', properties: { a: { type: 'array', items: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': [crossRule, crossMessage] } } } } },
    ]);
    expect([...stored.rules]).toEqual(['self.replicas < 1.5', 'self.replicas > 0']);
    // Kubernetes 1.28 records the rule of a rule with a message expression, not the expression
    expect([...stored.messageExpressions]).toEqual(['self.replicas > 0']);
    const compileErrors = (errs: string[]) => errs.map((e) => e.replace(/:.*compilation failed: ERROR: (<input>:\d+:\d+: [^\n]*)[^]*$/, ': $1'));
    const crossMessageRefused =
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].messageExpression: <input>:1:15: found no matching overload for '_<_' applied to '(int, double)'";
    expect(compileErrors(validateRuleDefinitions(spec([crossRule, crossMessage]), root, stored).map(String))).toEqual([crossMessageRefused]);
    expect(compileErrors(check(spec([crossRule, crossMessage])))).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: <input>:1:15: found no matching overload for '_<_' applied to '(int, double)'",
      crossMessageRefused,
    ]);
    // a message expression that reads as a recorded rule is compiled in the full environment
    const asRecorded = findPreexistingExpressions([spec([{ rule: "self.replicas < 1.5 ? 'few' : 'many'", messageExpression: "'m'" }])]);
    expect(validateRuleDefinitions(spec([{ rule: 'self.replicas > 0', messageExpression: "self.replicas < 1.5 ? 'few' : 'many'" }]), root, asRecorded)).toEqual([]);
    // an expression is pre-existing only as it was stored, character for character
    expect(validateRuleDefinitions(spec([{ rule: 'self.replicas  < 1.5' }]), root, stored).map(String)[0]).toContain("found no matching overload for '_<_' applied to '(int, double)'");
  });

  it('gives an expression cut short after an operator cel-go\'s ANTLR syntax error', () => {
    const expecting = "mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
    expect(check(spec([{ rule: 'self.replicas > 0 &&' }]))[0]).toContain(`compilation failed: ERROR: <input>:1:21: Syntax error: ${expecting}\n | self.replicas > 0 &&\n | ....................^`);
  });

  it('compiles no rule of a node where a rule\'s own fields are in error, and reports its children first', () => {
    const withChild = spec([{ rule: 'self.replicas', messageExpression: 'self.replicas' }, { rule: 'self.replicas > 0', reason: 'Unknown' as never }], {
      inner: { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', fieldPath: '.nothere' }] },
    });
    expect(check(withChild).map((e) => e.replace(/: .*/, ''))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[inner].x-kubernetes-validations[0].fieldPath',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].reason',
    ]);
  });

  it('checks field selections against the schema, as cel-go', () => {
    expect(check(spec([{ rule: 'self.replicas > 0 && self.replica < 5' }]))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas > 0 && self.replica < 5", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: compilation failed: ERROR: <input>:1:26: undefined field \'replica\'\n | self.replicas > 0 && self.replica < 5\n | .........................^',
    ]);
  });

  it.each([
    [{ rule: '   ' }, 'x-kubernetes-validations[0].rule: Required value: rule is not specified'],
    [{ rule: 'true', message: '  ' }, 'x-kubernetes-validations[0].message: Invalid value: "  ": message must be non-empty if specified'],
    [{ rule: 'true ||\nfalse' }, 'x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks'],
    [{ rule: 'true', reason: 'Nope' }, 'x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"'],
    [{ rule: 'true', fieldPath: '.nope' }, 'x-kubernetes-validations[0].fieldPath: Invalid value: ".nope": fieldPath must be a valid path'],
    [{ rule: 'true', fieldPath: '.tags[0]' }, 'x-kubernetes-validations[0].fieldPath: Invalid value: ".tags[0]": fieldPath must be a valid path'],
  ])('checks the fields of rule %j', (rule, want) => {
    expect(check(spec([rule as never]))).toEqual([`spec.validation.openAPIV3Schema.properties[spec].${want}`]);
  });

  it.each([
    ["self.name.matches('(')", 'error parsing regexp: missing closing ): `(`'],
    ["self.name.find('a(?=b)') == ''", 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ["self.name.findAll('[z-a]', 1).size() == 0", 'error parsing regexp: invalid character class range: `z-a`'],
  ])('rejects the literal regex of %s when the program is made', (rule, detail) => {
    expect(check(spec([{ rule }]))).toEqual([
      `spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: program instantiation failed: ${detail}`,
    ]);
  });

  it('accepts literal RE2 regexes', () => {
    expect(check(spec([{ rule: "self.name.matches('^[a-z]+$') && self.name.find('(?i)x') == ''" }]))).toEqual([]);
  });

  it('accepts a valid fieldPath', () => {
    expect(check(spec([{ rule: 'true', fieldPath: ".replicas" }, { rule: 'true', fieldPath: "['x-y']" }]))).toEqual([]);
  });

  it('estimates a regular expression over an unbounded string as over the largest request', () => {
    const pattern = 'x'.repeat(160);
    const rule = { rule: `self.matches('${pattern}')` };
    const unbounded: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [rule] } } };
    // ceil((1 + 3 MiB) * 0.1) * ceil(160 * 0.25) = 12_582_960 > 10_000_000.
    expect(check(unbounded)[0]).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[s\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of 1\.2\d*x /);
    const bounded: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string', maxLength: 1000, 'x-kubernetes-validations': [rule] } } };
    expect(check(bounded)).toEqual([]);
  });

  it('bounds the total estimated cost of all rules, counting how often each may run', () => {
    const rules = Array.from({ length: 40 }, (_, i) => ({ rule: `self > ${i}` }));
    const schema: JSONSchemaProps = { type: 'object', properties: { l: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': rules } } } };
    const errs = check(schema);
    expect(errs.filter((e) => e.includes('estimated rule cost exceeds budget'))).toEqual([]);
    expect(errs.filter((e) => e.endsWith('contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'))).toHaveLength(4);
    expect(errs[errs.length - 1]).toMatch(/^spec\.validation\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.\d+x /);
    const bounded: JSONSchemaProps = { type: 'object', properties: { l: { type: 'array', maxItems: 1000, items: { type: 'integer', 'x-kubernetes-validations': rules } } } };
    expect(check(bounded)).toEqual([]);
  });

  it('forbids oldSelf below lists that are not list-type map', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } },
    };
    expect(check(schema)).toEqual([
      'spec.validation.openAPIV3Schema.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[l]',
    ]);
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields out of reach', () => {
    const schema = spec([{ rule: 'self.extra.anything == 1' }], { extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
    expect(check(schema)[0]).toContain("undefined field 'anything'");
    expect(messages(spec([{ rule: "!has(self.extra.replicas) || true" }], { extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { replicas: { type: 'integer' } } } }), { spec: { extra: { other: 1 } } })).toEqual([]);
  });

  it('follows comprehension variables and escaped names', () => {
    const schema = spec([{ rule: "self.tags.all(t, t > 0) && self.x__dash__y != ''" }]);
    expect(check(schema)).toEqual([]);
    expect(check(spec([{ rule: 'self.name.foo' }]))[0]).toContain("type 'string' does not support field selection");
  });

  it('rejects a rule whose estimated cost exceeds the limit, unless the list is bounded', () => {
    const list = (maxItems?: number): JSONSchemaProps => ({
      type: 'array',
      ...(maxItems ? { maxItems } : {}),
      items: { type: 'string', maxLength: 10 },
      'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, a == b || a != b))' }],
    });
    const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    expect(check({ type: 'object', properties: { l: list() } })).toEqual([
      `spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
      'spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
    ]);
    expect(check({ type: 'object', properties: { l: list(100) } })).toEqual([]);
  });
});

describe('property name escaping', () => {
  it.each([
    ['foo', 'foo'],
    ['foo-bar', 'foo__dash__bar'],
    ['a.b/c', 'a__dot__b__slash__c'],
    ['x__y', 'x__underscores__y'],
    ['namespace', '__namespace__'],
    ['true', '__true__'],
    ['in', '__in__'],
    ['while', '__while__'],
    ['_x', '_x'],
    ['___', '__underscores___'],
    ['a__b__c', 'a__underscores__b__underscores__c'],
    ['-leading', '__dash__leading'],
    ['kubernetes.io/role', 'kubernetes__dot__io__slash__role'],
    ['x9-', 'x9__dash__'],
  ])('%s is %s', (name, escaped) => {
    expect(escapePropertyName(name)).toBe(escaped);
    expect(unescapePropertyName(escaped)).toBe(name);
  });

  it('leaves names that cannot be accessed', () => {
    for (const name of ['1abc', '', 'a b', 'a:b', 'ünï']) expect(escapePropertyName(name)).toBeNull();
  });

  it('makes escaped properties accessible to rules, and inaccessible ones invisible', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        o: {
          type: 'object',
          properties: { 'a-b': { type: 'integer' }, 'c.d': { type: 'integer' }, namespace: { type: 'string' }, x__y: { type: 'string' }, '1x': { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: "self.a__dash__b + self.c__dot__d == 3 && self.__namespace__ == 'ns' && !has(self.x__underscores__y)" }],
        },
      },
    };
    expect(validateRuleDefinitions(schema, field.newPath('s')).map(String)).toEqual([]);
    expect(validateRules(schema, { o: { 'a-b': 1, 'c.d': 2, namespace: 'ns', '1x': 5 } }, undefined).map(String)).toEqual([]);
  });
});
