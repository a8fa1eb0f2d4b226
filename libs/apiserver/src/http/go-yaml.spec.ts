import { goYamlStrictError, goYamlToJson, resolvePlain } from './go-yaml';

describe('resolvePlain (yaml.v2 resolve of an untagged plain scalar)', () => {
  it.each([
    ['yes', true],
    ['Y', true],
    ['ON', true],
    ['off', false],
    ['n', false],
    ['~', null],
    ['', null],
    ['0x1F', 31],
    ['0o17', 15],
    ['017', 15],
    ['08', 8],
    ['0b101', 5],
    ['-0b11', -3],
    ['1_000', 1000],
    ['+5', 5],
    ['.5', 0.5],
    ['1e2', 100],
    ['1e400', '1e400'],
    ['2001-12-14', '2001-12-14'],
    ['yesterday', 'yesterday'],
    ['0x', '0x'],
  ])('reads %j as %j', (text, value) => {
    expect(resolvePlain(text)).toEqual(value);
  });

  it('gives NaN and infinities, which JSON cannot hold', () => {
    expect(resolvePlain('.nan')).toBeNaN();
    expect(resolvePlain('-.Inf')).toBe(-Infinity);
    expect(() => goYamlToJson('a: .inf')).toThrow('json: unsupported value: +Inf');
  });
});

describe('goYamlToJson and goYamlStrictError', () => {
  it('keeps quoted scalars as strings and takes the last of repeated keys', () => {
    expect(goYamlToJson('a: "yes"\nb: \'0x1F\'\nc: 1\nc: 2\n')).toBe('{"a":"yes","b":"0x1F","c":2}');
  });

  it('names every repeated key by line, as yaml.v2 strict decoding does', () => {
    expect(goYamlStrictError('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n')).toBe('yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map');
    expect(goYamlStrictError('a: 1\n')).toBeNull();
  });
});

describe('libyaml syntax messages', () => {
  it('words a flow collection left open as libyaml, at the line of the stream end', () => {
    expect(() => goYamlToJson('metadata: [unclosed')).toThrow("yaml: line 1: did not find expected ',' or ']'");
    expect(() => goYamlToJson('a: b\nmetadata: {x: y\n')).toThrow("yaml: line 2: did not find expected ',' or '}'");
  });
});
