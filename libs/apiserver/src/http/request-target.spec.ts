import { parseRequestTarget, RequestTargetError, unescapePath } from './request-target';

describe('parseRequestTarget (url.ParseRequestURI)', () => {
  it('keeps the path as sent: no dot segments resolved, no slashes merged', () => {
    expect(parseRequestTarget('GET', '///')).toEqual({ path: '///', rawQuery: '' });
    expect(parseRequestTarget('GET', '/api/v1/namespaces/%2e%2e/pods')).toEqual({ path: '/api/v1/namespaces/../pods', rawQuery: '' });
    expect(parseRequestTarget('GET', '/a/./b/../c\\d')).toEqual({ path: '/a/./b/../c\\d', rawQuery: '' });
  });

  it('splits the query off at the first "?", undecoded', () => {
    expect(parseRequestTarget('GET', '/api/v1/pods?labelSelector=a%3Db&x=?')).toEqual({ path: '/api/v1/pods', rawQuery: 'labelSelector=a%3Db&x=?' });
  });

  it('reads the absolute form and CONNECT\'s authority form', () => {
    expect(parseRequestTarget('GET', 'https://example.com:6443/api?x=1')).toEqual({ path: '/api', rawQuery: 'x=1' });
    expect(parseRequestTarget('GET', 'http://example.com')).toEqual({ path: '', rawQuery: '' });
    expect(parseRequestTarget('CONNECT', 'example.com:443')).toEqual({ path: '', rawQuery: '' });
    expect(parseRequestTarget('OPTIONS', '*')).toEqual({ path: '*', rawQuery: '' });
  });

  it('refuses what Go refuses', () => {
    expect(() => parseRequestTarget('GET', '')).toThrow(new RequestTargetError('empty url'));
    expect(() => parseRequestTarget('GET', 'pods')).toThrow(new RequestTargetError('invalid URI for request'));
    expect(() => parseRequestTarget('GET', '/a\u0001')).toThrow(new RequestTargetError('net/url: invalid control character in URL'));
    expect(() => parseRequestTarget('GET', '/a/%zz')).toThrow(new RequestTargetError('invalid URL escape "%zz"'));
    expect(() => parseRequestTarget('GET', '/a/%4')).toThrow(new RequestTargetError('invalid URL escape "%4"'));
  });
});

describe('unescapePath (url.PathUnescape)', () => {
  it('decodes escapes as UTF-8 bytes and keeps "+"', () => {
    expect(unescapePath('/a%2Fb+c')).toBe('/a/b+c');
    expect(unescapePath('/%D1%84')).toBe('/ф');
    expect(unescapePath('/plain')).toBe('/plain');
  });

  it('reads bytes that are not UTF-8 as U+FFFD, as a Go string printed as JSON would', () => {
    expect(unescapePath('/%ff')).toBe('/\ufffd');
  });
});
