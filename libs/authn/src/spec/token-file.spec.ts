import { parseTokenFile, readCsv } from '../index';

describe('static token file', () => {
  it('authenticates the tokens of the file, with uid and groups', () => {
    const tokens = parseTokenFile(['admin-token,admin,1,"system:masters,dev"', 'view-token,viewer,2', '', 'x,"quoted ""name""",3,'].join('\r\n'), '/etc/tokens.csv');
    expect(tokens.size).toBe(3);
    expect(tokens.authenticateToken('admin-token')).toEqual({ name: 'admin', uid: '1', groups: ['system:masters', 'dev'], extra: {} });
    expect(tokens.authenticateToken('view-token')).toEqual({ name: 'viewer', uid: '2', groups: [], extra: {} });
    // an empty fourth column is one empty group, as strings.Split("", ",") gives
    expect(tokens.authenticateToken('x')).toEqual({ name: 'quoted "name"', uid: '3', groups: [''], extra: {} });
    expect(tokens.authenticateToken('unknown')).toBeNull();
    expect(tokens.authenticateToken('')).toBeNull();
    expect(tokens.warnings).toEqual([]);
  });

  it('hands out copies, so callers cannot change the table', () => {
    const tokens = parseTokenFile('t,u,1,g');
    tokens.authenticateToken('t')!.groups.push('system:masters');
    expect(tokens.authenticateToken('t')!.groups).toEqual(['g']);
  });

  it('warns about empty and duplicate tokens as Kubernetes logs them', () => {
    const tokens = parseTokenFile('a,first,1\n,nobody,2\na,second,3\n', 'tokens.csv');
    expect(tokens.authenticateToken('a')?.name).toBe('second');
    expect(tokens.warnings).toEqual([
      "empty token has been found in token file 'tokens.csv', record number '2'",
      "duplicate token has been found in token file 'tokens.csv', record number '3'",
    ]);
  });

  it('refuses records with fewer than three columns', () => {
    expect(() => parseTokenFile('a,b,c\ntoken,user\n', 'tokens.csv')).toThrow(
      "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
    );
    // encoding/csv has no comments: a `#` line is a one-column record
    expect(() => parseTokenFile('# comment\n', 'tokens.csv')).toThrow('found 1');
  });

  it('reports CSV errors with Go encoding/csv messages', () => {
    expect(() => parseTokenFile('tok"en,user,1\n')).toThrow('parse error on line 1, column 4: bare " in non-quoted-field');
    expect(() => parseTokenFile('a,b,1\n"token"x,user,1\n')).toThrow('parse error on line 2, column 8: extraneous or missing " in quoted-field');
    expect(() => parseTokenFile('"token,user,1\nmore\n')).toThrow('record on line 1; parse error on line 2, column 6: extraneous or missing " in quoted-field');
  });

  it('reads quoted fields across lines and keeps spaces', () => {
    expect([...readCsv('"a\nb", c ,"d"""\n\n\ne,f')]).toEqual([
      ['a\nb', ' c ', 'd"'],
      ['e', 'f'],
    ]);
  });
});
