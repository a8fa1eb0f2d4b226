// The Kubernetes CEL libraries, case by case after apiserver/pkg/cel/library's tests: every
// expression must evaluate to true, or fail with the given message.
import { compileExpression } from './program';

const evaluate = (expression: string) => compileExpression(expression, []).evaluate({});

describe('list library', () => {
  it.each([
    '[1, 2, 3].indexOf(2) == 1',
    '[1, 2, 3].indexOf(4) == -1',
    '[].indexOf(1) == -1',
    "['a', 'b', 'b', 'c'].indexOf('b') == 1",
    "['a', 'b', 'b', 'c'].lastIndexOf('b') == 2",
    '[1.0, 2.0].indexOf(2.0) == 1',
    '[[1], [2], [2]].indexOf([2]) == 1',
    '[[1], [2], [2]].lastIndexOf([2]) == 2',
    "[{'a': 1}, {'a': 2}].indexOf({'a': 2}) == 1",
    '[1, 2, 3].min() == 1',
    '[3, 1, 2].max() == 3',
    '[1.5, -2.5].min() == -2.5',
    "['b', 'a', 'c'].max() == 'c'",
    "[duration('1m'), duration('59s')].min() == duration('59s')",
    "[timestamp('2000-01-01T00:00:00Z'), timestamp('1999-01-01T00:00:00Z')].max() == timestamp('2000-01-01T00:00:00Z')",
    '[1, 2, 3].sum() == 6',
    '[].sum() == 0',
    '[1.0, 2.5].sum() == 3.5',
    '[1u, 2u].sum() == 3u',
    "[duration('1s'), duration('2m')].sum() == duration('121s')",
    '[].isSorted()',
    '[1, 2, 2, 3].isSorted()',
    '![2, 1].isSorted()',
    "['a', 'b'].isSorted() && !['b', 'a'].isSorted()",
    "[duration('1s'), duration('2s')].isSorted()",
  ])('%s', (expression) => {
    expect(evaluate(expression)).toBe(true);
  });

  it.each([
    ['[].min()', 'min called on empty list'],
    ['[].max()', 'max called on empty list'],
  ])('%s fails with %s', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(message);
  });
});

describe('regex library (RE2 semantics)', () => {
  it.each([
    "'abc 123'.find('[0-9]+') == '123'",
    "'abc 123'.find('[0-9]*') == ''",
    "'abc 123'.find('xyz') == ''",
    "'ab'.find('a|ab') == 'a'",
    "'abcd'.find('(a|ab)(c|bcd)') == 'abcd'",
    "'ABC'.find('(?i)b') == 'B'",
    "'x\\nabc'.find('^abc') == ''",
    "'x\\nabc'.find('(?m)^abc') == 'abc'",
    "'abc'.find('\\\\Aabc\\\\z') == 'abc'",
    "'x abc'.find('\\\\babc$') == 'abc'",
    "'héllo wörld'.find('\\\\pL+') == 'héllo'",
    "'abc 123 def 456'.findAll('[0-9]+') == ['123', '456']",
    "'abc 123 def 456'.findAll('[0-9]+', 1) == ['123']",
    "'abc 123 def 456'.findAll('[0-9]+', -1) == ['123', '456']",
    "'abc 123 def 456'.findAll('[0-9]+', 0) == []",
    "'abc 123 def 456'.findAll('xyz') == []",
    // Go drops an empty match right after the previous match.
    "'abc 123 456'.findAll('[0-9]*') == ['', '', '', '', '123', '456']",
    "'xx'.findAll('x*') == ['xx']",
    "'axb'.findAll('x*') == ['', 'x', '']",
    "'a😀b'.findAll('.') == ['a', '😀', 'b']",
    "'banana'.findAll('a|ana') == ['a', 'a', 'a']",
    "'ab'.matches('(?i)B')",
    "'abc'.matches('^[a-c]+$')",
    "!'abc'.matches('^[a-b]+$')",
  ])('%s', (expression) => {
    expect(evaluate(expression)).toBe(true);
  });

  it.each([
    // A computed pattern fails at run time (a literal one already when the rule is compiled).
    ["'abc'.find('a(?' + '=b)')", 'Illegal regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ["'abc'.findAll('(' + 'a')", 'Illegal regex: error parsing regexp: missing closing ): `(a`'],
  ])('%s fails with %s', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(message);
  });

  it('matches in time linear in the input (no backtracking)', () => {
    const text = 'a'.repeat(5000) + 'b';
    expect(compileExpression("self.find('(a+)+c')", ['self']).evaluate({ self: text })).toBe('');
  });
});

describe('URL library (Go url.ParseRequestURI)', () => {
  it.each([
    "isURL('https://example.com:80/path?query=val#fragment')",
    "isURL('/absolute-path')",
    "isURL('mailto:someone@example.com')",
    "!isURL('')",
    "!isURL('../relative-path')",
    "!isURL('https://exa mple.com')",
    "url('https://example.com:80/path?query=val#fragment').getScheme() == 'https'",
    "url('/path').getScheme() == ''",
    "url('https://example.com:80/path').getHost() == 'example.com:80'",
    "url('https://Example.COM/path').getHost() == 'Example.COM'",
    "url('https://user:pass@example.com/').getHost() == 'example.com'",
    "url('/path').getHost() == ''",
    "url('https://example.com:80/path').getHostname() == 'example.com'",
    "url('https://[::1]:80/path').getHost() == '[::1]:80'",
    "url('https://[::1]:80/path').getHostname() == '::1'",
    "url('https://[::1]/path').getPort() == ''",
    "url('https://example.com:443/path').getPort() == '443'",
    "url('https://example.com/path').getPort() == ''",
    "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
    "url('https://example.com/a/../b').getEscapedPath() == '/a/../b'",
    "url('https://example.com/%2Fa').getEscapedPath() == '/%2Fa'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('/path?x=1').getEscapedPath() == '/path'",
    "url('https://example.com/?k=v&k=w&e=').getQuery() == {'k': ['v', 'w'], 'e': ['']}",
    "url('https://example.com/').getQuery() == {}",
    "url('https://example.com/?a=1+2').getQuery()['a'] == ['1 2']",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    // ParseRequestURI accepts the URL; Kubernetes then reads it with url.Parse, which cuts the
    // fragment off before the path and query.
    "url('https://example.com/p#f').getEscapedPath() == '/p'",
    "url('https://example.com/?q=v#f').getQuery() == {'q': ['v']}",
    // Go checks that a port is digits, not its range; the host may be empty.
    "isURL('https://example.com:99999/')",
    "isURL('https://')",
    "!isURL('https://example.com:8a/')",
    "!isURL('/a%zz')",
    "!isURL('https://exa\\nmple.com')",
    // Without a scheme, //host/path is a path.
    "isURL('//host/path') && url('//host/path').getHost() == '' && url('//host/path').getEscapedPath() == '//host/path'",
  ])('%s', (expression) => {
    expect(evaluate(expression)).toBe(true);
  });

  it.each([
    ["url('../relative')", 'URL parse error during conversion from string: parse "../relative": invalid URI for request'],
    ["url('not a url').getHost()", 'URL parse error during conversion from string: parse "not a url": invalid URI for request'],
    ["url('')", 'URL parse error during conversion from string: parse "": empty url'],
    ["url(':x')", 'URL parse error during conversion from string: parse ":x": missing protocol scheme'],
    ["url('/a%zz')", 'URL parse error during conversion from string: parse "/a%zz": invalid URL escape "%zz"'],
    ["url('https://a b/')", 'URL parse error during conversion from string: parse "https://a b/": invalid character " " in host name'],
    ["url('https://h:x/')", 'URL parse error during conversion from string: parse "https://h:x/": invalid port ":x" after host'],
    ["url('https://[::1/')", 'URL parse error during conversion from string: parse "https://[::1/": missing \']\' in host'],
  ])('%s fails with %s', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(message);
  });
});

// Values and errors as cel-go and Kubernetes' libraries give them, where a JS evaluator differs.
describe('exact values and runtime errors', () => {
  it.each([
    "'a,b,c'.split(',', 2) == ['a', 'b,c']",
    "'a,b,c'.split(',', -1) == ['a', 'b', 'c'] && 'a,b,c'.split(',', 0) == []",
    "'abc'.split('', 2) == ['a', 'bc']",
    "duration('1m30s').getMilliseconds() == 90000 && duration('-1.5s').getMilliseconds() == -1500",
    "duration('1h30m').getMinutes() == 90 && duration('90m').getHours() == 1 && duration('1m30s').getSeconds() == 90",
    "timestamp('2024-01-01T10:00:00.123Z').getMilliseconds() == 123",
    "string(timestamp('2024-01-01T10:00:00+02:00')) == '2024-01-01T10:00:00+02:00'",
    "string(timestamp('2024-01-01T10:00:00.500Z')) == '2024-01-01T10:00:00.5Z'",
    "timestamp('2024-01-01T10:00:00+02:00') == timestamp('2024-01-01T08:00:00Z')",
    "timestamp('2024-01-01T10:00:00+02:00').getHours() == 8",
    "[duration('1s')].filter(x, false).sum() == duration('0')",
    '[1.5].filter(x, false).sum() == 0.0',
    '[1u].filter(x, false).sum() == 0u',
    '[1].filter(x, false).sum() == 0',
    "url('https://example.com/p?q=v#f').getQuery() == {'q': ['v']}",
    "url('https://example.com/p#f').getEscapedPath() == '/p'",
  ])('%s', (expression) => {
    expect(evaluate(expression)).toBe(true);
  });

  it.each([
    ['9223372036854775807 + 1 > 0', 'integer overflow'],
    ['-9223372036854775808 - 1 < 0', 'integer overflow'],
    ['2 * 9223372036854775807 > 0', 'integer overflow'],
    ['18446744073709551615u + 1u > 0u', 'unsigned integer overflow'],
    ['1 / 0 == 0', 'division by zero'],
    ['1 % 0 == 0', 'modulus by zero'],
    ['[1, 2][100] == 1', 'index out of bounds: 100'],
    ["int('x') == 1", 'strconv.ParseInt: parsing "x": invalid syntax'],
  ])('%s fails with %s', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(message);
  });
});
