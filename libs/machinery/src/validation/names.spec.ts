import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPathSegmentName, regexError } from './names';

const nameRegex = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const subdomainRegex =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelValueRegex =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('isQualifiedName', () => {
  it.each(['a', 'A', '1', 'a.b_c-d', 'example.com/MyName', 'platform.io/role', 'a'.repeat(63), `${'a'.repeat(253)}/a`])('accepts %s', (v) => {
    expect(isQualifiedName(v)).toEqual([]);
  });

  it('rejects a bad name part', () => {
    expect(isQualifiedName('-a')).toEqual([`name part ${nameRegex}`]);
    expect(isQualifiedName('a b')).toEqual([`name part ${nameRegex}`]);
  });

  it('rejects an empty or long name part', () => {
    expect(isQualifiedName('')).toEqual(['name part must be non-empty', `name part ${nameRegex}`]);
    expect(isQualifiedName('example.com/')).toEqual(['name part must be non-empty', `name part ${nameRegex}`]);
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
  });

  it('rejects a bad prefix', () => {
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('Example.com/a')).toEqual([`prefix part ${subdomainRegex}`]);
    expect(isQualifiedName(`${'a'.repeat(254)}/a`)).toEqual(['prefix part must be no more than 253 characters']);
  });

  it('rejects more than one slash', () => {
    expect(isQualifiedName('a/b/c')).toEqual([
      `a qualified name ${nameRegex} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]);
  });
});

describe('isValidLabelValue', () => {
  it.each(['', 'a', 'my_value', '12345', 'A-b.c_d', 'a'.repeat(63)])('accepts %j', (v) => {
    expect(isValidLabelValue(v)).toEqual([]);
  });

  it('rejects bad and long values', () => {
    expect(isValidLabelValue('-a')).toEqual([labelValueRegex]);
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isValidLabelValue('é')).toEqual([labelValueRegex]);
  });
});

describe('DNS names', () => {
  it('isDNS1123Subdomain', () => {
    expect(isDNS1123Subdomain('example.com')).toEqual([]);
    expect(isDNS1123Subdomain('Example')).toEqual([subdomainRegex]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });

  it('isDNS1123Label', () => {
    expect(isDNS1123Label('my-name')).toEqual([]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('a_b')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it('isValidPathSegmentName', () => {
    expect(isValidPathSegmentName('ok:name')).toEqual([]);
    expect(isValidPathSegmentName('..')).toEqual(["may not be '..'"]);
    expect(isValidPathSegmentName('a/b%c')).toEqual(["may not contain '/'", "may not contain '%'"]);
  });

  it('regexError without examples', () => {
    expect(regexError('bad', '[a-z]+')).toBe("bad (regex used for validation is '[a-z]+')");
  });
});
