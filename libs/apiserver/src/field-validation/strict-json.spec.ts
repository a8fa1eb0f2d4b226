import { findDuplicates, JsonSyntaxError, keyOffsets, maxNestingDepth, parseJson, parseStrictJson } from './strict-json';

function syntaxError(text: string): string {
  try {
    parseStrictJson(text);
  } catch (err) {
    expect(err).toBeInstanceOf(JsonSyntaxError);
    return (err as Error).message;
  }
  throw new Error(`no error for ${JSON.stringify(text)}`);
}

describe('parseStrictJson values', () => {
  const documents = [
    '{}',
    '[]',
    '  {"a": 1, "b": [true, false, null], "c": {"d": "e"}}  ',
    '{"n": [0, -0, 1.5, -2.25e-3, 1E+2, 12345678901234567890, 9007199254740993]}',
    '"a \\"quoted\\" \\\\ \\/ \\b\\f\\n\\r\\t string"',
    '"\\u00e9\\u4e2d\\u0000"',
    '"é中😀 raw"',
    '[[[[{"deep": [{}]}]]]]',
    '42',
    'null',
  ];

  it.each(documents)('reads %s as JSON.parse does', (text) => {
    expect(parseStrictJson(text).value).toEqual(JSON.parse(text));
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps big integers as JS numbers', () => {
    expect(parseJson('{"n": 12345678901234567890}')).toEqual({ n: 12345678901234567000 });
  });

  it('lets the last of duplicated keys win, at the first key position', () => {
    const { value, duplicates } = parseStrictJson('{"a": 1, "b": 2, "a": 3}');
    expect(value).toEqual({ a: 3, b: 2 });
    expect(Object.keys(value as object)).toEqual(['a', 'b']);
    expect(duplicates).toEqual([{ path: 'a', offset: 17 }]);
    expect(parseJson('{"a": 1, "b": 2, "a": 3}')).toEqual({ a: 3, b: 2 });
  });

  it('decodes surrogate pairs and turns lone surrogates into U+FFFD, as Go does', () => {
    expect(parseStrictJson('"\\ud83d\\ude00"').value).toBe('😀');
    expect(parseStrictJson('"\\ud800"').value).toBe('\ufffd');
    expect(parseStrictJson('"\\udc00x"').value).toBe('\ufffdx');
    expect(parseStrictJson('"\\ud800\\u0041"').value).toBe('\ufffdA');
    expect(parseStrictJson('"\\ud800\\ud800\\udc00"').value).toBe('\ufffd\u{10000}');
    expect(parseStrictJson('"a\ud800b"').value).toBe('a\ufffdb');
    expect(parseStrictJson('{"\\ud800": 1}').value).toEqual({ '\ufffd': 1 });
  });

  it('reads a Buffer as UTF-8, invalid bytes as U+FFFD', () => {
    const body = Buffer.concat([Buffer.from('{"a": "x'), Buffer.from([0xff]), Buffer.from('y"}')]);
    expect(parseStrictJson(body).value).toEqual({ a: 'x\ufffdy' });
  });

  it('makes __proto__ an own property on either path', () => {
    for (const text of ['{"__proto__": {"x": 1}}', '{"__proto__": {"x": 1}, "s": "\\ud800"}']) {
      const value = parseStrictJson(text).value as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toContain('__proto__');
      expect((value as { x?: number }).x).toBeUndefined();
    }
  });

  it('accepts 1000 levels of nesting and refuses the next with Go\'s error (Go stops at 10000)', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(maxNestingDepth).toBe(1000);
    expect(parseStrictJson(deep(1000)).duplicates).toEqual([]);
    expect(syntaxError(deep(1001))).toBe("invalid character '[' exceeded max depth");
    expect(syntaxError('{"a":'.repeat(1001) + '1' + '}'.repeat(1001))).toBe("invalid character '{' exceeded max depth");
    expect(syntaxError(deep(100_000))).toBe("invalid character '[' exceeded max depth");
    expect(() => parseJson(deep(1000))).not.toThrow();
  });

  it('finds duplicates whichever way the text was read', () => {
    // a string holding `":` makes the key count differ and the scan run; a surrogate escape
    // sends the text through the Go parser
    expect(parseStrictJson('{"a": "x\\":y", "b": 1}').duplicates).toEqual([]);
    expect(parseStrictJson('{"a": "x\\":y", "a": 1}').duplicates).toEqual([{ path: 'a', offset: 15 }]);
    expect(parseStrictJson('{"s": "\\ud83d\\ude00", "s": 1}').duplicates.map((d) => d.path)).toEqual(['s']);
    expect(parseStrictJson('{"a": {"b": 1, "b": 2}}').duplicates.map((d) => d.path)).toEqual(['a.b']);
  });

  it('still finds duplicates when Object.prototype has enumerable names', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    try {
      expect(parseStrictJson('{"a": 1, "a": 2}').duplicates.map((d) => d.path)).toEqual(['a']);
    } finally {
      delete proto.polluted;
    }
  });

  it('skips the duplicate scan when asked', () => {
    expect(parseStrictJson('{"a":1,"a":2}', { duplicates: false })).toEqual({ value: { a: 2 }, duplicates: [] });
  });
});

describe('parseStrictJson syntax errors (encoding/json scanner text)', () => {
  const cases: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{"a": 1', 'unexpected end of JSON input'],
    ['[2, 3', 'unexpected end of JSON input'],
    ['{"a": "b', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['-', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"X": "foo", "Y"}', "invalid character '}' after object key"],
    ['{"a" "b"}', `invalid character '"' after object key`],
    ['[1, 2, 3+]', "invalid character '+' after array element"],
    ['{"X":12x}', "invalid character 'x' after object key:value pair"],
    ['{"F3": -}', "invalid character '}' in numeric literal"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['01', "invalid character '1' after top-level value"],
    ['{} {}', "invalid character '{' after top-level value"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['1e+}', "invalid character '}' in exponent of numeric literal"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nil', "invalid character 'i' in literal null (expecting 'u')"],
    ['fals3', "invalid character '3' in literal false (expecting 'e')"],
    ['"a\\zb"', "invalid character 'z' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\u0001"', "invalid character '\\x01' in string literal"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['\u0001 42', "invalid character '\\x01' looking for beginning of value"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['{"a": é}', "invalid character 'Ã' looking for beginning of value"],
    ['{"a": 1}}', "invalid character '}' after top-level value"],
  ];

  it.each(cases)('%j', (text, message) => {
    expect(syntaxError(text)).toBe(message);
  });

  it('reports the offset of the offending character', () => {
    let offset = -1;
    try {
      parseStrictJson('{"a": x}');
    } catch (err) {
      offset = (err as JsonSyntaxError).offset;
    }
    expect(offset).toBe(6);
  });
});

describe('duplicate fields (sigs.k8s.io/json strict paths)', () => {
  it('names top-level and nested duplicates by path, in document order', () => {
    const text = `{
      "metadata": {"name": "dupename", "name": "n", "labels": {"app": "a", "app": "b"}},
      "spec": {"paused": true, "paused": false,
        "template": {"spec": {"containers": [{"name": "c"}, {"imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}},
      "spec": {}
    }`;
    expect(findDuplicates(text).map((d) => d.path)).toEqual([
      'metadata.name',
      'metadata.labels.app',
      'spec.paused',
      'spec.template.spec.containers[1].imagePullPolicy',
      'spec',
    ]);
  });

  it('indexes top-level and nested arrays', () => {
    expect(findDuplicates('[{"a":1},{"a":1,"a":2}]').map((d) => d.path)).toEqual(['[1].a']);
    expect(findDuplicates('{"a":[[{"x":1}],[{"x":1,"x":1}]]}').map((d) => d.path)).toEqual(['a[1][0].x']);
  });

  it('reports every repetition, and compares decoded keys', () => {
    expect(findDuplicates('{"a":1,"a":2,"a":3}').map((d) => d.path)).toEqual(['a', 'a']);
    expect(findDuplicates('{"m":{"\\u0061":1,"a":2}}').map((d) => d.path)).toEqual(['m.a']);
    expect(findDuplicates('{"a\\"b":1,"a\\"b":2}').map((d) => d.path)).toEqual(['a"b']);
  });

  it('ignores strings that are values, and keys in sibling objects', () => {
    expect(findDuplicates('{"a":"a","b":["a","a"],"c":{"a":1},"d":{"a":1}}')).toEqual([]);
  });

  it('joins an empty key as the strict decoder does', () => {
    expect(findDuplicates('{"":{"a":1,"a":2}}').map((d) => d.path)).toEqual(['.a']);
  });

  it('finds where keys first occur', () => {
    const text = '{"spec":{"b":1,"a":{"x":1},"a":2},"z":[{"k":1}]}';
    const offsets = keyOffsets(text, new Set(['spec.a', 'z[0].k', 'missing']));
    expect([...offsets]).toEqual([
      ['spec.a', 15],
      ['z[0].k', 40],
    ]);
  });
});


