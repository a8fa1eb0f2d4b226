// Certificates for Plinth's PKIs: self-signed CAs and the certificates they sign (serving,
// client, or both for an etcd member's peer link), valid ten years. Their keys are ECDSA P-256,
// as kubeadm can make them (--encryption-algorithm=ECDSA-P256): every consumer accepts them
// (kubectl, client-go, etcd, nats-server, grpc-js, node:tls) and one costs a fraction of a
// millisecond where an RSA 2048 key costs hundreds. A CA persisted with an RSA key (an older
// data dir) still signs, with SHA-256 and RSA. node-forge only lays out the names and the
// extensions; node:crypto makes the keys and the signatures, which forge cannot do for ECDSA.
import { createPrivateKey, createPublicKey, generateKeyPair, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { promisify } from 'node:util';
import { asn1, pki, util } from 'node-forge';

export interface KeyPairPem {
  cert: string;
  key: string;
}

const tenYearsMs = 10 * 365 * 24 * 3600 * 1000;

// signatureAlgorithms are the AlgorithmIdentifiers a certificate is signed with, by the
// issuer's key type (RFC 5758: no parameters for ECDSA; RFC 4055: NULL for RSA).
const signatureAlgorithms = {
  ec: { oid: '1.2.840.10045.4.3.2', nullParameters: false },
  rsa: { oid: '1.2.840.113549.1.1.11', nullParameters: true },
} as const;

// forgeInternals are node-forge's encoders its typings leave out (extensions, wrapped in [3]).
const forgeInternals = pki as unknown as { certificateExtensionsToAsn1(extensions: unknown[]): asn1.Asn1 };

function newKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
}

function privateKeyPem(key: KeyObject): string {
  return key.export({ type: key.asymmetricKeyType === 'ec' ? 'sec1' : 'pkcs1', format: 'pem' }).toString();
}

// serialNumber is 127 random bits, positive and minimally encoded, as Go's x509 tools make them.
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = 0x40 | (bytes[0] & 0x3f);
  return bytes.toString('hex');
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

// Issuer is who signs: its subject name (DER, as in its certificate) and private key.
interface Issuer {
  name: asn1.Asn1;
  key: KeyObject;
}

function extensionsFor(spec: CertSpec): Record<string, unknown>[] {
  // keyEncipherment is for RSA key transport; an ECDSA key only signs.
  const extensions: Record<string, unknown>[] = [];
  if (spec.isCA) {
    extensions.push({ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true, critical: true });
  } else {
    extensions.push({ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, critical: true });
    extensions.push({ name: 'extKeyUsage', serverAuth: !spec.client || Boolean(spec.server), clientAuth: Boolean(spec.client) });
  }
  if (spec.serverNames) {
    extensions.push({
      name: 'subjectAltName',
      altNames: [...spec.serverNames.dns.map((value) => ({ type: 2, value })), ...spec.serverNames.ips.map((ip) => ({ type: 7, ip }))],
    });
  }
  return extensions;
}

function der(node: asn1.Asn1): Buffer {
  return Buffer.from(asn1.toDer(node).getBytes(), 'binary');
}

function fromDer(bytes: Buffer): asn1.Asn1 {
  return asn1.fromDer(util.createBuffer(bytes.toString('binary')));
}

function sequence(children: asn1.Asn1[]): asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, children);
}

// time is RFC 5280's Time: UTCTime through 2049, GeneralizedTime after.
function time(date: Date): asn1.Asn1 {
  return date.getUTCFullYear() < 2050
    ? asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(date))
    : asn1.create(asn1.Class.UNIVERSAL, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));
}

function algorithmIdentifier(issuerKey: KeyObject): asn1.Asn1 {
  const algorithm = signatureAlgorithms[issuerKey.asymmetricKeyType === 'ec' ? 'ec' : 'rsa'];
  const oid = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(algorithm.oid).getBytes());
  return sequence(algorithm.nullParameters ? [oid, asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')] : [oid]);
}

// issue makes a key and a certificate for it, signed by the issuer (itself when null).
function issue(spec: CertSpec, issuer: Issuer | null): { pem: KeyPairPem; issuer: Issuer } {
  const key = newKey();
  const forgeCert = pki.createCertificate();
  forgeCert.setSubject([{ name: 'commonName', value: spec.commonName }, ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o }))]);
  forgeCert.setExtensions(extensionsFor(spec));
  const subjectName = pki.distinguishedNameToAsn1(forgeCert.subject);
  const signer: Issuer = issuer ?? { name: subjectName, key };
  const now = Date.now();
  const signatureAlgorithm = algorithmIdentifier(signer.key);
  const tbs = sequence([
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(2).getBytes())]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, util.hexToBytes(serialNumber())),
    signatureAlgorithm,
    signer.name,
    sequence([time(new Date(now - 60_000)), time(new Date(now + tenYearsMs))]),
    subjectName,
    fromDer(createPublicKey(key).export({ type: 'spki', format: 'der' })),
    forgeInternals.certificateExtensionsToAsn1(forgeCert.extensions),
  ]);
  const signature = sign('sha256', der(tbs), signer.key);
  const certificate = sequence([tbs, signatureAlgorithm, asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, '\0' + signature.toString('binary'))]);
  const pem = { cert: derToPem(der(certificate)), key: privateKeyPem(key) };
  return { pem, issuer: { name: subjectName, key } };
}

function derToPem(bytes: Buffer): string {
  const lines = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

// issuerOf reads a CA's subject name out of its certificate, exactly as encoded there, and its key.
function issuerOf(ca: KeyPairPem): Issuer {
  const body = ca.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
  const tbs = (fromDer(Buffer.from(body, 'base64')).value as asn1.Asn1[])[0].value as asn1.Asn1[];
  const versioned = tbs[0].tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  return { name: tbs[versioned + 4], key: createPrivateKey(ca.key) };
}

// newPrivateKeyPem is an RSA 2048 private key (PKCS#1 PEM): the service-account signing key,
// which signs RS256 tokens as kube-apiserver's --service-account-key-file usually holds. Its
// generation runs in libuv's pool, so that the start-up does not wait on it idly.
export async function newPrivateKeyPem(): Promise<string> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return privateKeyPem(privateKey);
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
  return issue({ commonName, isCA: true }, null).pem;
}

// issueCertificate signs a certificate for the request with the CA.
export function issueCertificate(ca: KeyPairPem, request: CertificateRequest): KeyPairPem {
  const serving = request.usage !== 'client';
  const spec: CertSpec = {
    commonName: request.commonName,
    organizations: request.organizations,
    client: request.usage !== 'server',
    server: serving,
    serverNames: serving ? { dns: request.dns ?? [], ips: request.ips ?? [] } : undefined,
  };
  return issue(spec, issuerOf(ca)).pem;
}
