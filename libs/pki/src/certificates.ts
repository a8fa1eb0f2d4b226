// Certificates for Plinth's PKIs: self-signed CAs and the certificates they sign (serving,
// client, or both for an etcd member's peer link), RSA 2048 and SHA-256, valid ten years.
import { generateKeyPairSync } from 'node:crypto';
import { md, pki } from 'node-forge';

export interface KeyPairPem {
  cert: string;
  key: string;
}

const tenYearsMs = 10 * 365 * 24 * 3600 * 1000;

function newKey(): { privatePem: string; forgeKey: pki.rsa.PrivateKey; forgePublic: pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = pki.privateKeyFromPem(privatePem);
  const forgePublic = pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  return { privatePem, forgeKey, forgePublic };
}

function serial(): string {
  return Date.now().toString(16) + Math.floor(Math.random() * 0xffff).toString(16).padStart(4, '0');
}

interface CertSpec {
  commonName: string;
  organizations?: string[];
  isCA?: boolean;
  serverNames?: { dns: string[]; ips: string[] };
  client?: boolean;
  // server with client also makes a certificate for both ends (an etcd member's peer link).
  server?: boolean;
}

function issue(spec: CertSpec, issuer: { cert: pki.Certificate; key: pki.rsa.PrivateKey } | null): { pem: KeyPairPem; cert: pki.Certificate; key: pki.rsa.PrivateKey } {
  const key = newKey();
  const cert = pki.createCertificate();
  cert.publicKey = key.forgePublic;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + tenYearsMs);
  const subject = [{ name: 'commonName', value: spec.commonName }, ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o }))];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
  const extensions: Record<string, unknown>[] = [];
  if (spec.isCA) {
    extensions.push({ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true });
  } else {
    extensions.push({ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
    extensions.push({ name: 'extKeyUsage', serverAuth: !spec.client || Boolean(spec.server), clientAuth: Boolean(spec.client) });
  }
  if (spec.serverNames) {
    extensions.push({
      name: 'subjectAltName',
      altNames: [...spec.serverNames.dns.map((value) => ({ type: 2, value })), ...spec.serverNames.ips.map((ip) => ({ type: 7, ip }))],
    });
  }
  cert.setExtensions(extensions);
  cert.sign(issuer ? issuer.key : key.forgeKey, md.sha256.create());
  return { pem: { cert: pki.certificateToPem(cert), key: key.privatePem }, cert, key: key.forgeKey };
}

// newPrivateKeyPem is an RSA private key (PKCS#1 PEM), e.g. a service-account signing key.
export function newPrivateKeyPem(): string {
  return newKey().privatePem;
}

// CertificateRequest is what issueCertificate puts in a certificate: the subject (CN, and O
// for the groups or identities a peer checks), and what it serves as (names), is a client of,
// or both.
export interface CertificateRequest {
  commonName: string;
  organizations?: string[];
  usage: 'server' | 'client' | 'peer';
  // dns and ips are the serving names (server and peer certificates).
  dns?: string[];
  ips?: string[];
}

// newCertificateAuthority makes a self-signed CA, for the links between the services (storage,
// etcd, NATS) as for the cluster.
export function newCertificateAuthority(commonName: string): KeyPairPem {
  return crlfFree(issue({ commonName, isCA: true }, null).pem);
}

// issueCertificate signs a certificate for the request with the CA.
export function issueCertificate(ca: KeyPairPem, request: CertificateRequest): KeyPairPem {
  const issuer = { cert: pki.certificateFromPem(ca.cert), key: pki.privateKeyFromPem(ca.key) };
  const serving = request.usage !== 'client';
  const spec: CertSpec = {
    commonName: request.commonName,
    organizations: request.organizations,
    client: request.usage !== 'server',
    server: serving,
    serverNames: serving ? { dns: request.dns ?? [], ips: request.ips ?? [] } : undefined,
  };
  return crlfFree(issue(spec, issuer).pem);
}

// crlfFree writes PEM with plain newlines (node-forge writes CRLF).
function crlfFree(pair: KeyPairPem): KeyPairPem {
  return { cert: pair.cert.replace(/\r\n/g, '\n'), key: pair.key.replace(/\r\n/g, '\n') };
}

