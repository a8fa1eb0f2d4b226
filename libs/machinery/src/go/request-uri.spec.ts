import { RequestUriError, splitRequestUri } from './request-uri';

describe('splitRequestUri (url.ParseRequestURI)', () => {
  it('keeps an absolute path as written and cuts the query at the first "?"', () => {
    expect(splitRequestUri('/a/%2e%2e/b?x=?&y')).toEqual({ scheme: '', authority: '', rawPath: '/a/%2e%2e/b', rawQuery: 'x=?&y' });
    expect(splitRequestUri('//host/path')).toEqual({ scheme: '', authority: '', rawPath: '//host/path', rawQuery: '' });
    expect(splitRequestUri('*')).toEqual({ scheme: '', authority: '', rawPath: '*', rawQuery: '' });
    expect(splitRequestUri('/p#f')).toEqual({ scheme: '', authority: '', rawPath: '/p#f', rawQuery: '' });
  });

  it('splits an absolute URL into scheme, authority and path', () => {
    expect(splitRequestUri('https://u:p@example.com:6443/api?x=1')).toEqual({ scheme: 'https', authority: 'u:p@example.com:6443', rawPath: '/api', rawQuery: 'x=1' });
    expect(splitRequestUri('http://example.com')).toEqual({ scheme: 'http', authority: 'example.com', rawPath: '', rawQuery: '' });
    expect(splitRequestUri('http://example.com?q')).toEqual({ scheme: 'http', authority: 'example.com', rawPath: '', rawQuery: 'q' });
  });

  it('reads scheme:opaque as a URL without a path', () => {
    expect(splitRequestUri('mailto:someone@example.com')).toEqual({ scheme: 'mailto', authority: '', rawPath: '', rawQuery: '' });
    expect(splitRequestUri('urn:x?y')).toEqual({ scheme: 'urn', authority: '', rawPath: '', rawQuery: 'y' });
  });

  it('refuses what Go refuses, with its message', () => {
    const refusals: Array<[string, string]> = [
      ['', 'empty url'],
      ['pods', 'invalid URI for request'],
      ['../relative', 'invalid URI for request'],
      ['?x', 'invalid URI for request'],
      [':foo', 'missing protocol scheme'],
      ['/a\u0001', 'net/url: invalid control character in URL'],
      ['/a\u007f', 'net/url: invalid control character in URL'],
    ];
    for (const [raw, message] of refusals) {
      expect(() => splitRequestUri(raw)).toThrow(new RequestUriError(message));
    }
  });
});
