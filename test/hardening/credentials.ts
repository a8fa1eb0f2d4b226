// forgeCredential makes the credentials no target may accept: JWTs with alg none, signed by a
// key not the target's, signed with the target's public key as an HMAC secret, from another
// issuer, expired service-account tokens, and a client certificate from an unknown CA that
// claims to be the administrator.
import { createHmac, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { issueServiceAccountToken } from '@plinth/authn';
import { defaultServiceAccountIssuer } from '@plinth/apiserver';
import { ForgedCredential } from './hostile-case';
import { ClientCertificate } from './raw-client';
import { issueClientCertificate, newCertificateAuthority } from '../security/tls';

export interface Forged {
  authorization?: string;
  clientCert?: ClientCertificate;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const day = 24 * 3600_000;

// serviceAccount is who the forged tokens claim to be: kube-system's namespace controller,
// which may delete namespaces.
const serviceAccount = { namespace: 'kube-system', name: 'namespace-controller', uid: '2f0c3b7e-5d1a-4c47-9a6e-0d9c1f3e8b21' };

export function credentialForger(serviceAccountKey: string): (forged: ForgedCredential) => Forged {
  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const stranger = issueClientCertificate(newCertificateAuthority('plinth-ca'), 'plinth-admin', ['system:masters']);
  const token = (privateKey: string, now: number, issuer = defaultServiceAccountIssuer) =>
    issueServiceAccountToken({ ...serviceAccount, issuer, privateKey, now, expirationSeconds: 3600 }).token;
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  const made: Record<ForgedCredential, () => Forged> = {
    'alg-none-jwt': () => {
      const [, payload] = token(serviceAccountKey, Date.now()).split('.');
      return bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`);
    },
    'foreign-key-jwt': () => bearer(token(foreignKey, Date.now())),
    'expired-service-account-token': () => bearer(token(serviceAccountKey, Date.now() - 2 * day)),
    'wrong-issuer-jwt': () => bearer(token(serviceAccountKey, Date.now(), 'https://issuer.example')),
    'hs256-public-key-jwt': () => {
      const [, payload] = token(serviceAccountKey, Date.now()).split('.');
      const header = b64({ alg: 'HS256', typ: 'JWT' });
      const publicPem = createPublicKey(serviceAccountKey).export({ type: 'spki', format: 'pem' }).toString();
      const signature = createHmac('sha256', publicPem).update(`${header}.${payload}`).digest('base64url');
      return bearer(`${header}.${payload}.${signature}`);
    },
    'stranger-client-cert': () => ({ clientCert: stranger }),
  };
  const cache = new Map<ForgedCredential, Forged>();
  return (forged) => {
    if (!cache.has(forged)) cache.set(forged, made[forged]());
    return cache.get(forged) as Forged;
  };
}
