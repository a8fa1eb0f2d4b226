import { X509Certificate } from 'node:crypto';
import { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { authenticateClientCertificate, AuthenticationError, CertPool, certificateIdentifier, parseCertificate, peerCertificates } from '../index';
import { issueCertificate, Issued, newCA } from './pki';

const hour = 3600_000;

describe('client certificate authentication', () => {
  let ca: Issued;
  let alice: Issued;

  beforeAll(() => {
    ca = newCA('client-ca');
    alice = issueCertificate({ cn: 'alice', orgs: ['system:masters', 'dev'], issuer: ca });
  });

  it('maps CN to the user name and O to the groups', () => {
    expect(authenticateClientCertificate([alice.der], ca.certPem)).toEqual({ name: 'alice', uid: '', groups: ['system:masters', 'dev'], extra: {} });
  });

  it('accepts the chain as PEM, X509Certificate objects, a Node peer certificate object, and a prebuilt pool', () => {
    const pool = CertPool.fromPem(ca.certPem);
    expect(authenticateClientCertificate(alice.certPem, pool)?.name).toBe('alice');
    expect(authenticateClientCertificate([new X509Certificate(alice.der)], [ca.certPem])?.name).toBe('alice');
    // getPeerCertificate(true): each certificate links to its issuer, the root to itself.
    const root: Record<string, unknown> = { raw: ca.der, subject: { CN: 'client-ca' } };
    root.issuerCertificate = root;
    const detailed = { raw: alice.der, subject: { CN: 'alice' }, issuerCertificate: root };
    expect(peerCertificates(detailed as unknown as tls.DetailedPeerCertificate)).toHaveLength(2);
    expect(authenticateClientCertificate(detailed as unknown as tls.DetailedPeerCertificate, pool)?.name).toBe('alice');
  });

  it('returns null without a certificate or without a CN', () => {
    expect(authenticateClientCertificate(undefined, ca.certPem)).toBeNull();
    expect(authenticateClientCertificate({} as tls.PeerCertificate, ca.certPem)).toBeNull();
    expect(authenticateClientCertificate([], ca.certPem)).toBeNull();
    const nameless = issueCertificate({ orgs: ['only-org'], issuer: ca });
    expect(authenticateClientCertificate([nameless.der], ca.certPem)).toBeNull();
  });

  it('rejects a certificate from another CA, naming it by serial and key ids', () => {
    const other = newCA('other-ca');
    const mallory = issueCertificate({ cn: 'mallory', issuer: other, serial: '0abc' });
    const id = certificateIdentifier(parseCertificate(mallory.der));
    expect(id).toMatch(/^SN=2748, SKID=([0-9A-F]{2}:){19}[0-9A-F]{2}, AKID=([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(() => authenticateClientCertificate([mallory.der], ca.certPem)).toThrow(AuthenticationError);
    expect(() => authenticateClientCertificate([mallory.der], ca.certPem)).toThrow(`verifying certificate ${id} failed: x509: certificate signed by unknown authority`);
  });

  it('rejects a certificate signed by an impostor CA with the same name', () => {
    const impostor = newCA('client-ca');
    const eve = issueCertificate({ cn: 'eve', issuer: impostor });
    expect(() => authenticateClientCertificate([eve.der], ca.certPem)).toThrow(
      /x509: certificate signed by unknown authority \(possibly because of "crypto\/rsa: verification error" while trying to verify candidate authority certificate "client-ca"\)$/,
    );
  });

  it('rejects expired and not yet valid certificates', () => {
    const now = Date.now();
    const expired = issueCertificate({ cn: 'old', issuer: ca, notBefore: new Date(now - 48 * hour), notAfter: new Date(now - 24 * hour) });
    expect(() => authenticateClientCertificate([expired.der], ca.certPem, { now })).toThrow(
      /x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    const future = issueCertificate({ cn: 'soon', issuer: ca, notBefore: new Date(now + 6 * hour), notAfter: new Date(now + 12 * hour) });
    expect(() => authenticateClientCertificate([future.der], ca.certPem, { now })).toThrow(/is not yet valid: current time .* is before /);
    // the same certificate is fine at a time inside its window
    expect(authenticateClientCertificate([future.der], ca.certPem, { now: now + 8 * hour })?.name).toBe('soon');
  });

  it('rejects a chain whose CA has expired', () => {
    const now = Date.now();
    const oldCA = newCA('old-ca', { notBefore: new Date(now - 48 * hour), notAfter: new Date(now - hour) });
    const bob = issueCertificate({ cn: 'bob', issuer: oldCA, notBefore: new Date(now - 2 * hour), notAfter: new Date(now + hour) });
    expect(() => authenticateClientCertificate([bob.der], oldCA.certPem, { now })).toThrow(
      /unknown authority \(possibly because of "x509: certificate has expired or is not yet valid: .*" while trying to verify candidate authority certificate "old-ca"\)/,
    );
  });

  it('requires the clientAuth extended key usage where usages are listed', () => {
    const server = issueCertificate({ cn: 'web', issuer: ca, extKeyUsage: ['serverAuth'] });
    expect(() => authenticateClientCertificate([server.der], ca.certPem)).toThrow(/failed: x509: certificate specifies an incompatible key usage$/);
    const both = issueCertificate({ cn: 'both', issuer: ca, extKeyUsage: ['serverAuth', 'clientAuth'] });
    expect(authenticateClientCertificate([both.der], ca.certPem)?.name).toBe('both');
    const unrestricted = issueCertificate({ cn: 'any', issuer: ca, extKeyUsage: null });
    expect(authenticateClientCertificate([unrestricted.der], ca.certPem)?.name).toBe('any');
  });

  describe('with intermediates', () => {
    let root: Issued;
    let intermediate: Issued;
    let carol: Issued;

    beforeAll(() => {
      root = newCA('root');
      intermediate = newCA('intermediate', { issuer: root });
      carol = issueCertificate({ cn: 'carol', orgs: ['ops'], issuer: intermediate });
    });

    it('builds the chain through intermediates the client sent', () => {
      expect(authenticateClientCertificate([carol.der, intermediate.der], root.certPem)).toEqual({ name: 'carol', uid: '', groups: ['ops'], extra: {} });
      expect(() => authenticateClientCertificate([carol.der], root.certPem)).toThrow(/x509: certificate signed by unknown authority$/);
    });

    it('ignores a self-signed root the client sent that is not trusted', () => {
      expect(() => authenticateClientCertificate([carol.der, intermediate.der, root.der], newCA('other').certPem)).toThrow(/unknown authority/);
      expect(authenticateClientCertificate([carol.der, intermediate.der, root.der], root.certPem)?.name).toBe('carol');
    });

    it('refuses intermediates that are not CAs or may not sign certificates', () => {
      const notCA = issueCertificate({ cn: 'not-a-ca', issuer: root, extKeyUsage: null });
      const dave = issueCertificate({ cn: 'dave', issuer: notCA });
      expect(() => authenticateClientCertificate([dave.der, notCA.der], root.certPem)).toThrow(
        /possibly because of "x509: invalid signature: parent certificate cannot sign this kind of certificate"/,
      );
      const noCertSign = newCA('no-cert-sign', { issuer: root, keyCertSign: false });
      const erin = issueCertificate({ cn: 'erin', issuer: noCertSign });
      expect(() => authenticateClientCertificate([erin.der, noCertSign.der], root.certPem)).toThrow(/parent certificate cannot sign this kind of certificate/);
    });

    it('enforces path length constraints', () => {
      const strict = newCA('strict-root', { pathLen: 0 });
      const mid = newCA('mid', { issuer: strict });
      const frank = issueCertificate({ cn: 'frank', issuer: mid });
      expect(() => authenticateClientCertificate([frank.der, mid.der], strict.certPem)).toThrow(/too many intermediates for path length constraint/);
    });

    it('applies an intermediate extended key usage restriction to the chain', () => {
      const serverOnly = newCA('server-only', { issuer: root, extKeyUsage: ['serverAuth'] });
      const gina = issueCertificate({ cn: 'gina', issuer: serverOnly });
      expect(() => authenticateClientCertificate([gina.der, serverOnly.der], root.certPem)).toThrow(/incompatible key usage/);
    });
  });

  it('rejects a CA bundle without certificates and garbage certificates', () => {
    expect(() => CertPool.fromPem('not a pem')).toThrow('data does not contain any valid RSA or ECDSA certificates');
    expect(() => authenticateClientCertificate([Buffer.from('garbage')], ca.certPem)).toThrow('parsing client certificate failed: x509: malformed certificate');
  });

  it('authenticates the chain a real TLS client presented', async () => {
    const serverCert = issueCertificate({ cn: 'localhost', issuer: ca, extKeyUsage: ['serverAuth'] });
    const server = tls.createServer({ key: serverCert.keyPem, cert: serverCert.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false });
    const seen = new Promise<ReturnType<typeof authenticateClientCertificate>>((resolve, reject) => {
      server.on('secureConnection', (socket) => {
        try {
          resolve(authenticateClientCertificate(socket.getPeerCertificate(true), ca.certPem));
        } catch (e) {
          reject(e);
        } finally {
          socket.end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = tls.connect({ host: '127.0.0.1', port, key: alice.keyPem, cert: alice.certPem, rejectUnauthorized: false });
    client.on('error', () => undefined);
    try {
      expect(await seen).toEqual({ name: 'alice', uid: '', groups: ['system:masters', 'dev'], extra: {} });
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
