// Client certificate authentication, after apiserver/pkg/authentication/request/x509: the chain a
// client presented is verified against the client CA bundle the way Go's x509.Certificate.Verify
// does it (parents found by name, signatures checked, validity at `now`, CA constraints, the
// clientAuth extended key usage), then the leaf's CN is the user name and its O values the groups.
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, PeerCertificate } from 'node:tls';
import { goQuote, realClock, rfc3339 } from '@plinth/machinery';
import { CertificateFields, ExtKeyUsage, parseCertificateFields, pemBlocks } from './der';
import { AuthenticationError } from './errors';
import { newUserInfo, UserInfo } from './user';

export interface Certificate {
  readonly der: Buffer;
  readonly x509: X509Certificate;
  readonly fields: CertificateFields;
}

export function parseCertificate(der: Buffer): Certificate {
  let x509: X509Certificate;
  let fields: CertificateFields;
  try {
    x509 = new X509Certificate(der);
    fields = parseCertificateFields(der);
  } catch {
    throw new Error('x509: malformed certificate');
  }
  return { der, x509, fields };
}

// CertPool is x509.CertPool: certificates looked up by the raw bytes of their subject.
export class CertPool {
  private readonly bySubject = new Map<string, Certificate[]>();
  readonly certificates: Certificate[] = [];

  constructor(certificates: Iterable<Certificate> = []) {
    for (const c of certificates) this.add(c);
  }

  // fromPem parses a CA bundle (the contents of --client-ca-file and the like), as cert.ParseCertsPEM.
  static fromPem(pem: string | readonly string[]): CertPool {
    const blocks = (typeof pem === 'string' ? [pem] : pem).flatMap((p) => pemBlocks(p, 'CERTIFICATE'));
    if (blocks.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
    return new CertPool(blocks.map(parseCertificate));
  }

  add(c: Certificate): void {
    const key = c.fields.rawSubject.toString('hex');
    const list = this.bySubject.get(key) ?? [];
    list.push(c);
    this.bySubject.set(key, list);
    this.certificates.push(c);
  }

  contains(c: Certificate): boolean {
    return (this.bySubject.get(c.fields.rawSubject.toString('hex')) ?? []).some((p) => p.der.equals(c.der));
  }

  // potentialParents lists the certificates named as c's issuer, those whose key id matches c's
  // authority key id first, as CertPool.findPotentialParents orders them.
  potentialParents(c: Certificate): Certificate[] {
    const candidates = this.bySubject.get(c.fields.rawIssuer.toString('hex')) ?? [];
    const akid = c.fields.authorityKeyId;
    const rank = (p: Certificate) => {
      const skid = p.fields.subjectKeyId;
      if (akid.length > 0 && skid.length > 0) return akid.equals(skid) ? 0 : 2;
      return 1;
    };
    return [...candidates].sort((a, b) => rank(a) - rank(b));
  }
}

// PeerCertificateChain is what a caller may hand over for the client's chain, leaf first: Node's
// tlsSocket.getPeerCertificate(true) result, X509Certificate objects, DER buffers or a PEM bundle.
export type PeerCertificateChain =
  | DetailedPeerCertificate
  | PeerCertificate
  | X509Certificate
  | readonly (Buffer | X509Certificate)[]
  | string
  | null
  | undefined;

// peerCertificates turns any accepted form into the DER certificates, leaf first.
export function peerCertificates(chain: PeerCertificateChain): Buffer[] {
  if (!chain) return [];
  if (typeof chain === 'string') return pemBlocks(chain, 'CERTIFICATE');
  if (chain instanceof X509Certificate) return [chain.raw];
  if (Array.isArray(chain)) return chain.map((c: Buffer | X509Certificate) => (c instanceof X509Certificate ? c.raw : c));
  const out: Buffer[] = [];
  const seen = new Set<object>();
  let current: Partial<DetailedPeerCertificate> | undefined = chain as Partial<DetailedPeerCertificate>;
  // getPeerCertificate(true) links each certificate to its issuer; the root links to itself.
  while (current && current.raw && !seen.has(current)) {
    seen.add(current);
    out.push(current.raw);
    current = current.issuerCertificate;
  }
  return out;
}

export interface VerifyOptions {
  roots: CertPool;
  intermediates?: readonly Certificate[];
  now: number;
  keyUsages?: readonly string[]; // extended key usage OIDs; clientAuth when omitted
}

// The maximum number of signature checks while building chains, as in crypto/x509.
const maxChainSignatureChecks = 100;

function validityError(c: Certificate, now: number): Error | undefined {
  if (now < c.fields.notBefore) {
    return new Error(`x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(c.fields.notBefore)}`);
  }
  if (now > c.fields.notAfter) {
    return new Error(`x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(c.fields.notAfter)}`);
  }
  return undefined;
}

type CertType = 'leaf' | 'intermediate' | 'root';

// isValid is Certificate.isValid: validity window, CA flag of intermediates, path length limits.
function isValid(c: Certificate, certType: CertType, chain: readonly Certificate[], now: number): Error | undefined {
  const expired = validityError(c, now);
  if (expired) return expired;
  if (certType === 'intermediate' && (!c.fields.basicConstraintsValid || !c.fields.isCA)) {
    return new Error('x509: certificate is not authorized to sign other certificates');
  }
  if (certType !== 'leaf' && c.fields.basicConstraintsValid && c.fields.maxPathLen >= 0 && chain.length - 1 > c.fields.maxPathLen) {
    return new Error('x509: too many intermediates for path length constraint');
  }
  return undefined;
}

const insecureAlgorithms: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'MD5-RSA',
  '1.2.840.113549.1.1.5': 'SHA1-RSA',
  '1.2.840.10045.4.1': 'ECDSA-SHA1',
};

// checkSignatureFrom is Certificate.CheckSignatureFrom: the parent must be allowed to sign
// certificates and its key must verify the child's signature.
function checkSignatureFrom(child: Certificate, parent: Certificate): Error | undefined {
  const p = parent.fields;
  if ((p.version === 3 && !p.basicConstraintsValid) || (p.basicConstraintsValid && !p.isCA) || p.keyUsageCertSign === false) {
    return new Error('x509: invalid signature: parent certificate cannot sign this kind of certificate');
  }
  const insecure = insecureAlgorithms[child.fields.signatureAlgorithm];
  if (insecure) return new Error(`x509: cannot verify signature: insecure algorithm ${insecure}`);
  let ok = false;
  try {
    ok = child.x509.verify(parent.x509.publicKey);
  } catch {
    ok = false;
  }
  if (ok) return undefined;
  return new Error(parent.x509.publicKey.asymmetricKeyType === 'ec' ? 'x509: ECDSA verification failure' : 'crypto/rsa: verification error');
}

function unknownAuthority(hint?: { err: Error; cert: Certificate }): Error {
  let message = 'x509: certificate signed by unknown authority';
  if (hint) {
    const subject = hint.cert.fields.subject;
    const name = subject.commonName || subject.organization[0] || `serial:${hint.cert.fields.serialNumber}`;
    message += ` (possibly because of ${goQuote(hint.err.message)} while trying to verify candidate authority certificate ${goQuote(name)})`;
  }
  return new Error(message);
}

function sameCertificate(a: Certificate, b: Certificate): boolean {
  return a.der.equals(b.der) || (a.fields.rawSubject.equals(b.fields.rawSubject) && a.x509.publicKey.equals(b.x509.publicKey));
}

function buildChains(chain: Certificate[], intermediates: CertPool, opts: VerifyOptions, sigChecks: { n: number }): Certificate[][] {
  const current = chain[chain.length - 1];
  const chains: Certificate[][] = [];
  let err: Error | undefined;
  let hint: { err: Error; cert: Certificate } | undefined;
  const consider = (certType: CertType, candidate: Certificate) => {
    if (chain.some((c) => sameCertificate(c, candidate))) return;
    if (++sigChecks.n > maxChainSignatureChecks) {
      err = new Error('x509: signature check attempts limit reached while verifying certificate chain');
      return;
    }
    const problem = checkSignatureFrom(current, candidate) ?? isValid(candidate, certType, chain, opts.now);
    if (problem) {
      hint ??= { err: problem, cert: candidate };
      return;
    }
    if (certType === 'root') {
      chains.push([...chain, candidate]);
      return;
    }
    try {
      chains.push(...buildChains([...chain, candidate], intermediates, opts, sigChecks));
    } catch (e) {
      err = e as Error;
    }
  };
  for (const root of opts.roots.potentialParents(current)) consider('root', root);
  for (const intermediate of intermediates.potentialParents(current)) consider('intermediate', intermediate);
  if (chains.length > 0) return chains;
  throw err ?? unknownAuthority(hint);
}

// checkChainForKeyUsage: every certificate that restricts extended key usage must allow the usage.
function chainAllowsUsage(chain: readonly Certificate[], usages: readonly string[]): boolean {
  let remaining = [...usages];
  for (const c of [...chain].reverse()) {
    const eku = c.fields.extKeyUsage;
    if (eku.length === 0 || eku.includes(ExtKeyUsage.Any)) continue;
    remaining = remaining.filter((u) => eku.includes(u));
    if (remaining.length === 0) return false;
  }
  return true;
}

// verifyCertificate is x509.Certificate.Verify: the verified chains from leaf to a root, or an
// error carrying Go's message.
export function verifyCertificate(leaf: Certificate, opts: VerifyOptions): Certificate[][] {
  const expired = validityError(leaf, opts.now);
  if (expired) throw expired;
  const candidates = opts.roots.contains(leaf) ? [[leaf]] : buildChains([leaf], new CertPool(opts.intermediates ?? []), opts, { n: 0 });
  const usages = opts.keyUsages ?? [ExtKeyUsage.ClientAuth];
  if (usages.includes(ExtKeyUsage.Any)) return candidates;
  const chains = candidates.filter((c) => chainAllowsUsage(c, usages));
  if (chains.length === 0) throw new Error('x509: certificate specifies an incompatible key usage');
  return chains;
}

function columnSeparatedHex(b: Buffer): string {
  return (b.toString('hex').toUpperCase().match(/../g) ?? []).join(':');
}

// certificateIdentifier names the certificate in verification errors: `SN=…, SKID=…, AKID=…`.
export function certificateIdentifier(c: Certificate): string {
  return `SN=${c.fields.serialNumber}, SKID=${columnSeparatedHex(c.fields.subjectKeyId)}, AKID=${columnSeparatedHex(c.fields.authorityKeyId)}`;
}

function toPool(roots: CertPool | string | readonly string[]): CertPool {
  return roots instanceof CertPool ? roots : CertPool.fromPem(roots);
}

// verifyPeerChain verifies a presented chain (leaf first, the rest as untrusted intermediates);
// it returns undefined when no certificate was presented.
export function verifyPeerChain(
  chain: PeerCertificateChain,
  roots: CertPool | string | readonly string[],
  now: number,
): { leaf: Certificate; chains: Certificate[][] } | undefined {
  const ders = peerCertificates(chain);
  if (ders.length === 0) return undefined;
  const [leaf, ...intermediates] = ders.map(parseCertificate);
  return { leaf, chains: verifyCertificate(leaf, { roots: toPool(roots), intermediates, now }) };
}

export interface ClientCertificateOptions {
  now?: number;
}

// authenticateClientCertificate is the x509 request authenticator with CommonNameUserConversion.
// It returns null when there is no certificate or its CN is empty, the user otherwise, and throws an
// AuthenticationError when the chain does not verify against the client CA.
export function authenticateClientCertificate(
  chain: PeerCertificateChain,
  clientCA: CertPool | string | readonly string[],
  opts: ClientCertificateOptions = {},
): UserInfo | null {
  const ders = peerCertificates(chain);
  if (ders.length === 0) return null;
  const roots = toPool(clientCA);
  let leaf: Certificate | undefined;
  try {
    const [first, ...intermediates] = ders.map(parseCertificate);
    leaf = first;
    verifyCertificate(first, { roots, intermediates, now: opts.now ?? realClock.now() });
  } catch (e) {
    const what = leaf ? `verifying certificate ${certificateIdentifier(leaf)} failed` : 'parsing client certificate failed';
    throw new AuthenticationError(`${what}: ${(e as Error).message}`);
  }
  const { commonName, organization } = leaf.fields.subject;
  if (!commonName) return null;
  return newUserInfo(commonName, { groups: organization });
}
