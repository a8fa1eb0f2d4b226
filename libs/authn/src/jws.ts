// Compact JWS signing and verification with node:crypto, for the algorithms service account tokens
// use: RS256 for RSA keys and ES256/ES384/ES512 by curve for ECDSA keys (pkg/serviceaccount/jwt.go);
// verification also accepts RS384/RS512 and PS256/PS384/PS512 as go-jose does for RSA keys.
import { constants, createHash, createPrivateKey, createPublicKey, KeyObject, sign, verify } from 'node:crypto';

export type JwsAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512';

const digests: Record<JwsAlgorithm, string> = {
  RS256: 'sha256',
  RS384: 'sha384',
  RS512: 'sha512',
  PS256: 'sha256',
  PS384: 'sha384',
  PS512: 'sha512',
  ES256: 'sha256',
  ES384: 'sha384',
  ES512: 'sha512',
};

const curves: Partial<Record<JwsAlgorithm, string>> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };

// signingAlgorithm picks the algorithm Kubernetes signs with for a key.
export function signingAlgorithm(key: KeyObject): JwsAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const alg = (Object.keys(curves) as JwsAlgorithm[]).find((a) => curves[a] === curve);
    if (alg) return alg;
    throw new Error(`unknown private key curve, must be 256, 384, or 521`);
  }
  throw new Error(`unknown private key type ${key.asymmetricKeyType}, must be *rsa.PrivateKey, *ecdsa.PrivateKey, or crypto.Signer`);
}

const keyIDs = new WeakMap<KeyObject, string>();

// keyID is keyIDFromPublicKey: the unpadded base64url SHA-256 of the PKIX DER public key.
export function keyID(key: KeyObject): string {
  let id = keyIDs.get(key);
  if (id === undefined) {
    const pub = key.type === 'private' ? createPublicKey(key) : key;
    id = createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
    keyIDs.set(key, id);
  }
  return id;
}

export function toPrivateKey(key: string | KeyObject): KeyObject {
  return typeof key === 'string' ? createPrivateKey(key) : key;
}

// goJson is JSON as Go's encoding/json writes a map: keys sorted at every level and <, >, &,
// U+2028 and U+2029 escaped.
export function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function signOptions(alg: JwsAlgorithm, key: KeyObject) {
  if (alg.startsWith('PS')) return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST };
  if (alg.startsWith('ES')) return { key, dsaEncoding: 'ieee-p1363' as const };
  return { key };
}

export function signJws(payload: unknown, privateKey: KeyObject, header: { alg: JwsAlgorithm; kid?: string }): string {
  const signingInput = `${Buffer.from(goJson(header)).toString('base64url')}.${Buffer.from(goJson(payload)).toString('base64url')}`;
  const signature = sign(digests[header.alg], Buffer.from(signingInput), signOptions(header.alg, privateKey));
  return `${signingInput}.${signature.toString('base64url')}`;
}

export interface ParsedJws {
  header: Record<string, unknown>;
  payload: Buffer;
  signingInput: Buffer;
  signature: Buffer;
}

const base64url = /^[A-Za-z0-9_-]*$/;

// decodeSegment is base64.RawURLEncoding.DecodeString: no padding, URL alphabet only.
export function decodeSegment(segment: string): Buffer | undefined {
  if (!base64url.test(segment) || segment.length % 4 === 1) return undefined;
  return Buffer.from(segment, 'base64url');
}

export function parseJws(token: string): ParsedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts.map(decodeSegment);
  if (!h || !p || !s) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(h.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) return undefined;
  return { header: header as Record<string, unknown>, payload: p, signingInput: Buffer.from(`${parts[0]}.${parts[1]}`), signature: s };
}

// verifyJws checks the signature with one public key; the header's alg must suit the key.
export function verifyJws(jws: ParsedJws, key: KeyObject): boolean {
  const alg = jws.header.alg as JwsAlgorithm;
  if (typeof alg !== 'string' || !(alg in digests)) return false;
  if (alg.startsWith('ES')) {
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== curves[alg]) return false;
  } else if (key.asymmetricKeyType !== 'rsa') {
    return false;
  }
  const options = alg.startsWith('PS') ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO } : signOptions(alg, key);
  try {
    return verify(digests[alg], jws.signingInput, options, jws.signature);
  } catch {
    return false;
  }
}

// parsePublicKeys reads every key of a PEM bundle (--service-account-key-file contents): public
// keys, certificates, or private keys whose public half is used.
export function parsePublicKeys(pem: string): KeyObject[] {
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g)].map((m) => m[0]);
  const keys = blocks.flatMap((block) => {
    try {
      return [createPublicKey(block)];
    } catch {
      return [];
    }
  });
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}
