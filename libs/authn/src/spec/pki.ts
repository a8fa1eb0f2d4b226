// Test PKI: real RSA keys from node:crypto and certificates built and signed with node-forge, so the
// verifiers meet the bytes a TLS client would present.
import { generateKeyPairSync } from 'node:crypto';
import { md, pki } from 'node-forge';

export interface Issued {
  cert: pki.Certificate;
  certPem: string;
  der: Buffer;
  keyPem: string;
  key: pki.rsa.PrivateKey;
  skid: string; // binary string, for the children's authority key identifier
}

export interface CertOptions {
  cn?: string;
  orgs?: string[];
  issuer?: Issued; // self-signed when omitted
  ca?: boolean;
  pathLen?: number;
  notBefore?: Date;
  notAfter?: Date;
  extKeyUsage?: Array<'clientAuth' | 'serverAuth'> | null; // null: no extension
  keyCertSign?: boolean; // for CAs; false leaves keyCertSign out of keyUsage
  basicConstraints?: boolean; // false: no extension at all
  serial?: string;
}

const hour = 3600_000;
let serials = 0x1000;

// newRsaKey makes a fresh key with node's generator (forge only signs). 1024 bits keeps the
// dozens of certificates the specs make cheap; the verifiers do not care about the size.
export function newRsaKey(): { pem: string; key: pki.rsa.PrivateKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { pem, key: pki.privateKeyFromPem(pem) };
}

export function issueCertificate(opts: CertOptions = {}): Issued {
  const { pem, key } = newRsaKey();
  const cert = pki.createCertificate();
  cert.publicKey = pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = opts.serial ?? (serials++).toString(16).padStart(4, '0');
  cert.validity.notBefore = opts.notBefore ?? new Date(Date.now() - hour);
  cert.validity.notAfter = opts.notAfter ?? new Date(Date.now() + 24 * hour);
  const subject = [
    ...(opts.cn !== undefined ? [{ name: 'commonName', value: opts.cn }] : []),
    ...(opts.orgs ?? []).map((value) => ({ name: 'organizationName', value })),
  ];
  cert.setSubject(subject);
  cert.setIssuer(opts.issuer ? opts.issuer.cert.subject.attributes : subject);
  const skid = cert.generateSubjectKeyIdentifier().getBytes();
  const extensions: Array<Record<string, unknown>> = [];
  if (opts.basicConstraints !== false) {
    extensions.push({ name: 'basicConstraints', cA: Boolean(opts.ca), ...(opts.pathLen !== undefined ? { pathLenConstraint: opts.pathLen } : {}), critical: true });
  }
  if (opts.ca) {
    extensions.push({ name: 'keyUsage', keyCertSign: opts.keyCertSign !== false, cRLSign: true, digitalSignature: true, critical: true });
  } else {
    extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
  }
  const eku = opts.extKeyUsage === undefined ? (opts.ca ? null : ['clientAuth']) : opts.extKeyUsage;
  if (eku) extensions.push({ name: 'extKeyUsage', clientAuth: eku.includes('clientAuth'), serverAuth: eku.includes('serverAuth') });
  extensions.push({ name: 'subjectKeyIdentifier' });
  if (opts.issuer) extensions.push({ name: 'authorityKeyIdentifier', keyIdentifier: opts.issuer.skid });
  cert.setExtensions(extensions);
  cert.sign(opts.issuer ? opts.issuer.key : key, md.sha256.create());
  const certPem = pki.certificateToPem(cert);
  const der = Buffer.from(pki.pemToDer(certPem).getBytes(), 'binary');
  return { cert, certPem, der, keyPem: pem, key, skid };
}

export function newCA(cn = 'test-ca', opts: CertOptions = {}): Issued {
  return issueCertificate({ cn, ca: true, ...opts });
}
