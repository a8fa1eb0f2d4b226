import { authenticateRequestHeader, AuthenticationError, requestHeaderUser } from '../index';
import { issueCertificate, Issued, newCA } from './pki';

describe('request-header authentication', () => {
  let frontProxyCA: Issued;
  let proxy: Issued;
  let clientCA: Issued;

  beforeAll(() => {
    frontProxyCA = newCA('front-proxy-ca');
    proxy = issueCertificate({ cn: 'front-proxy-client', issuer: frontProxyCA });
    clientCA = newCA('client-ca');
  });

  const headers = {
    'x-remote-user': ['alice'],
    'x-remote-group': ['dev', '', 'ops'],
    'x-remote-extra-scopes': ['view', 'edit'],
    'x-remote-extra-acme.com%2Fproject': ['plinth'],
    'x-remote-extra-Bad%zzKey': ['kept'],
    authorization: 'Bearer ignored',
  };

  it('reads the asserted user from a proxy signed by the request-header CA', () => {
    const user = authenticateRequestHeader({ headers, peerCertificate: [proxy.der] }, { clientCA: frontProxyCA.certPem, allowedNames: ['front-proxy-client'] });
    expect(user).toEqual({
      name: 'alice',
      uid: '',
      groups: ['dev', 'ops'],
      extra: { scopes: ['view', 'edit'], 'acme.com/project': ['plinth'], 'bad%zzkey': ['kept'] },
    });
  });

  it('accepts any CN when no allowed names are configured, and refuses one not in the list', () => {
    const other = issueCertificate({ cn: 'some-proxy', issuer: frontProxyCA });
    expect(authenticateRequestHeader({ headers, peerCertificate: [other.der] }, { clientCA: frontProxyCA.certPem })?.name).toBe('alice');
    const call = () => authenticateRequestHeader({ headers, peerCertificate: [other.der] }, { clientCA: frontProxyCA.certPem, allowedNames: ['front-proxy-client'] });
    expect(call).toThrow(AuthenticationError);
    expect(call).toThrow('x509: subject with cn=some-proxy is not in the allowed list');
  });

  it('trusts no headers from a certificate of another CA or from a request without a certificate', () => {
    const client = issueCertificate({ cn: 'front-proxy-client', issuer: clientCA });
    expect(() => authenticateRequestHeader({ headers, peerCertificate: [client.der] }, { clientCA: frontProxyCA.certPem })).toThrow(
      'x509: certificate signed by unknown authority',
    );
    expect(authenticateRequestHeader({ headers }, { clientCA: frontProxyCA.certPem })).toBeNull();
  });

  it('returns null when the proxy asserts no user', () => {
    expect(authenticateRequestHeader({ headers: { 'x-remote-group': 'dev' }, peerCertificate: [proxy.der] }, { clientCA: frontProxyCA.certPem })).toBeNull();
  });

  it('uses the configured header names; the first non-empty username header wins', () => {
    const config = { usernameHeaders: ['X-User', 'X-Fallback-User'], groupHeaders: ['X-Groups', 'X-More-Groups'], extraHeaderPrefixes: ['X-Extra-', 'X-Info-'] };
    const user = requestHeaderUser(
      { 'x-user': '', 'x-fallback-user': 'bob', 'x-groups': ['a'], 'x-more-groups': 'b', 'x-extra-one': '1', 'x-info-one': '2', 'x-remote-user': 'nobody' },
      config,
    );
    expect(user).toEqual({ name: 'bob', uid: '', groups: ['a', 'b'], extra: { one: ['1', '2'] } });
    expect(() => requestHeaderUser({}, { usernameHeaders: [' '] })).toThrow('empty header " "');
  });
});
