import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { connect, createServer, TLSSocket } from 'node:tls';
import { md, pki } from 'node-forge';
import { issueCertificate, KeyPairPem, newCertificateAuthority, newPrivateKeyPem } from './certificates';

// handshake connects a client with its certificate to a server with its own, both trusting the
// CA, and answers what each end saw of the other (the server writes back the client's CN).
async function handshake(ca: string, server: KeyPairPem, client: KeyPairPem, servername = 'localhost'): Promise<{ peerCN: string; clientCN: string }> {
  const tlsServer = createServer({ ...server, ca, requestCert: true, rejectUnauthorized: true }, (socket: TLSSocket) => {
    socket.end(String(socket.getPeerCertificate().subject.CN));
  });
  tlsServer.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  try {
    const port = (tlsServer.address() as AddressInfo).port;
    return await new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, servername, ca, ...client });
      let clientCN = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (clientCN += chunk));
      socket.on('end', () => resolve({ peerCN: String(socket.getPeerCertificate().subject.CN), clientCN }));
      socket.on('error', reject);
    });
  } finally {
    await new Promise((resolve) => tlsServer.close(resolve));
  }
}

// rsaCertificateAuthority is a CA as an older Plinth data dir holds it: RSA 2048, signed by forge.
function rsaCertificateAuthority(): KeyPairPem {
  const keyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = pki.privateKeyFromPem(keyPem);
  const cert = pki.createCertificate();
  cert.publicKey = pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 3600_000);
  cert.setSubject([{ name: 'commonName', value: 'old-rsa-ca' }]);
  cert.setIssuer([{ name: 'commonName', value: 'old-rsa-ca' }]);
  cert.setExtensions([{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, critical: true }]);
  cert.sign(key, md.sha256.create());
  return { cert: pki.certificateToPem(cert), key: keyPem };
}

describe('certificates', () => {
  const ca = newCertificateAuthority('plinth-ca');

  it('makes ECDSA P-256 keys, and a CA that signs itself with ECDSA-SHA256', () => {
    const cert = new X509Certificate(ca.cert);
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=plinth-ca');
    expect(cert.issuer).toBe('CN=plinth-ca');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(ca.key).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n/);
    expect(ca.cert).not.toContain('\r');
  });

  it('issues serving and client certificates with their names, groups and usages, each with its own serial', () => {
    const server = issueCertificate(ca, { commonName: 'plinth-apiserver', usage: 'server', dns: ['localhost'], ips: ['127.0.0.1'] });
    const admin = issueCertificate(ca, { commonName: 'plinth-admin', organizations: ['system:masters'], usage: 'client' });
    const serving = new X509Certificate(server.cert);
    const client = new X509Certificate(admin.cert);
    expect(serving.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(serving.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(serving.issuer).toBe('CN=plinth-ca');
    expect(serving.checkIssued(new X509Certificate(ca.cert))).toBe(true);
    expect(serving.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(client.subject).toBe('CN=plinth-admin\nO=system:masters');
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(client.ca).toBe(false);
    expect(client.serialNumber).not.toBe(serving.serialNumber);
  });

  it('serves and authenticates over TLS both ways, and a CA nobody trusts is refused', async () => {
    const server = issueCertificate(ca, { commonName: 'plinth-storage', usage: 'server', dns: ['localhost'] });
    const client = issueCertificate(ca, { commonName: 'plinth-gateway', usage: 'client' });
    await expect(handshake(ca.cert, server, client)).resolves.toEqual({ peerCN: 'plinth-storage', clientCN: 'plinth-gateway' });
    const stranger = issueCertificate(newCertificateAuthority('plinth-ca'), { commonName: 'plinth-storage', usage: 'server', dns: ['localhost'] });
    await expect(handshake(ca.cert, stranger, client)).rejects.toThrow(/certificate/);
  });

  it('still signs with a CA whose key is RSA (a data dir from before), with SHA-256 and RSA', async () => {
    const rsaCa = rsaCertificateAuthority();
    const server = issueCertificate(rsaCa, { commonName: 'plinth-apiserver', usage: 'server', dns: ['localhost'] });
    const client = issueCertificate(rsaCa, { commonName: 'plinth-admin', organizations: ['system:masters'], usage: 'client' });
    const cert = new X509Certificate(server.cert);
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.verify(new X509Certificate(rsaCa.cert).publicKey)).toBe(true);
    await expect(handshake(rsaCa.cert, server, client)).resolves.toEqual({ peerCN: 'plinth-apiserver', clientCN: 'plinth-admin' });
  });

  it('makes the service-account signing key RSA 2048 (RS256), in PKCS#1 PEM', async () => {
    const pem = await newPrivateKeyPem();
    expect(pem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(createPrivateKey(pem).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});
