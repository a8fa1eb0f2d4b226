import { createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { isBadRequest, isInvalid, StatusError } from '@plinth/machinery';
import {
  AuthenticationError,
  ExpirationExtensionSeconds,
  issueServiceAccountToken,
  IssueServiceAccountTokenOptions,
  keyID,
  ObjectState,
  verifyServiceAccountToken,
  VerifyServiceAccountTokenOptions,
} from '../index';
import { issueCertificate } from './pki';

const issuer = 'https://kubernetes.default.svc.cluster.local';
const now = Date.UTC(2026, 0, 1, 12, 0, 0, 500);
const nowSeconds = Math.floor(now / 1000);

function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; rawPayload: string } {
  const [h, p] = token.split('.');
  const rawPayload = Buffer.from(p, 'base64url').toString();
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), payload: JSON.parse(rawPayload), rawPayload };
}

describe('service account tokens', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsaPrivatePem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const base: IssueServiceAccountTokenOptions = { namespace: 'default', name: 'builder', uid: 'sa-uid', issuer, privateKey: rsaPrivatePem, now };
  const verifyOpts: VerifyServiceAccountTokenOptions = { publicKeys: rsaPublicPem, issuers: [issuer], audiences: [issuer], now };

  describe('issuing', () => {
    it('signs RS256 claims as TokenRequest does, with the default expiration of an hour', () => {
      const issued = issueServiceAccountToken(base);
      expect(issued.expirationSeconds).toBe(3600);
      expect(issued.expirationTimestamp).toBe('2026-01-01T13:00:00Z');
      expect(issued.audiences).toEqual([issuer]);
      const { header, payload, rawPayload } = decode(issued.token);
      expect(header).toEqual({ alg: 'RS256', kid: keyID(rsa.publicKey) });
      expect(payload).toEqual({
        aud: [issuer],
        exp: nowSeconds + 3600,
        iat: nowSeconds,
        iss: issuer,
        'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'builder', uid: 'sa-uid' } },
        nbf: nowSeconds,
        sub: 'system:serviceaccount:default:builder',
      });
      // keys in Go's map order
      expect(rawPayload.startsWith('{"aud":["https://kubernetes.default.svc.cluster.local"],"exp":')).toBe(true);
    });

    it('binds the token to a pod or a secret', () => {
      const pod = decode(issueServiceAccountToken({ ...base, boundObject: { kind: 'Pod', apiVersion: 'v1', name: 'web-0', uid: 'pod-uid' } }).token);
      expect(pod.payload['kubernetes.io']).toEqual({ namespace: 'default', pod: { name: 'web-0', uid: 'pod-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } });
      const secret = decode(issueServiceAccountToken({ ...base, boundObject: { kind: 'Secret', name: 's', uid: 'secret-uid' } }).token);
      expect(secret.payload['kubernetes.io']).toMatchObject({ secret: { name: 's', uid: 'secret-uid' } });
      try {
        issueServiceAccountToken({ ...base, boundObject: { kind: 'Node', apiVersion: 'v1', name: 'n', uid: 'u' } });
        throw new Error('expected an error');
      } catch (e) {
        expect(isBadRequest(e)).toBe(true);
        expect((e as Error).message).toBe('cannot bind token to object of type /v1, Kind=Node');
      }
    });

    it('validates the requested expiration', () => {
      const attempt = (expirationSeconds: number) => {
        try {
          issueServiceAccountToken({ ...base, expirationSeconds });
        } catch (e) {
          return e as StatusError;
        }
        throw new Error('expected an error');
      };
      const short = attempt(599);
      expect(isInvalid(short)).toBe(true);
      expect(short.message).toBe('TokenRequest.authentication.platform.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
      expect(attempt(2 ** 32 + 1).message).toContain('may not specify a duration larger than 2^32 seconds');
      expect(issueServiceAccountToken({ ...base, expirationSeconds: 600 }).expirationSeconds).toBe(600);
    });

    it('caps the expiration at the configured maximum, with a warning', () => {
      const issued = issueServiceAccountToken({ ...base, expirationSeconds: 7200, maxExpirationSeconds: 3600 });
      expect(issued.expirationSeconds).toBe(3600);
      expect(issued.warnings).toEqual(['requested expiration of 7200 seconds shortened to 3600 seconds']);
      expect(decode(issued.token).payload.exp).toBe(nowSeconds + 3600);
    });

    it('extends a pod-bound 3607-second token for the API audiences to a year, warning after 3607 seconds', () => {
      const boundObject = { kind: 'Pod', name: 'web-0', uid: 'pod-uid' };
      const issued = issueServiceAccountToken({ ...base, expirationSeconds: 3607, boundObject });
      expect(issued.expirationTimestamp).toBe('2026-01-01T13:00:07Z');
      const { payload } = decode(issued.token);
      expect(payload.exp).toBe(nowSeconds + ExpirationExtensionSeconds);
      expect((payload['kubernetes.io'] as Record<string, unknown>).warnafter).toBe(nowSeconds + 3607);
      // not for other audiences, not when disabled
      expect(decode(issueServiceAccountToken({ ...base, expirationSeconds: 3607, boundObject, audiences: ['vault'] }).token).payload.exp).toBe(nowSeconds + 3607);
      expect(decode(issueServiceAccountToken({ ...base, expirationSeconds: 3607, boundObject, extendExpiration: false }).token).payload.exp).toBe(nowSeconds + 3607);
    });

    it('signs with ES256 or ES384 for ECDSA keys', async () => {
      for (const [namedCurve, alg] of [
        ['P-256', 'ES256'],
        ['P-384', 'ES384'],
      ]) {
        const ec = generateKeyPairSync('ec', { namedCurve });
        const { token } = issueServiceAccountToken({ ...base, privateKey: ec.privateKey });
        expect(decode(token).header.alg).toBe(alg);
        expect((await verifyServiceAccountToken(token, { ...verifyOpts, publicKeys: [ec.publicKey] }))?.name).toBe('system:serviceaccount:default:builder');
      }
    });
  });

  describe('verifying', () => {
    it('authenticates the service account user', async () => {
      const { token } = issueServiceAccountToken(base);
      expect(await verifyServiceAccountToken(token, verifyOpts)).toEqual({
        name: 'system:serviceaccount:default:builder',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
        extra: {},
      });
    });

    it('adds the pod name and uid of a pod-bound token as extras', async () => {
      const { token } = issueServiceAccountToken({ ...base, boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } });
      expect((await verifyServiceAccountToken(token, verifyOpts))?.extra).toEqual({
        'authentication.platform.io/pod-name': ['web-0'],
        'authentication.platform.io/pod-uid': ['pod-uid'],
      });
    });

    it('takes public keys as PEM public keys, certificates, private keys or key objects', async () => {
      const { token } = issueServiceAccountToken(base);
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
      expect(await verifyServiceAccountToken(token, { ...verifyOpts, publicKeys: other + rsaPublicPem })).not.toBeNull();
      expect(await verifyServiceAccountToken(token, { ...verifyOpts, publicKeys: rsaPrivatePem })).not.toBeNull();
      expect(await verifyServiceAccountToken(token, { ...verifyOpts, publicKeys: [createPublicKey(rsaPrivatePem) as KeyObject] })).not.toBeNull();
      const cert = issueCertificate({ cn: 'signer' });
      const certToken = issueServiceAccountToken({ ...base, privateKey: cert.keyPem }).token;
      expect(await verifyServiceAccountToken(certToken, { ...verifyOpts, publicKeys: cert.certPem })).not.toBeNull();
      await expect(verifyServiceAccountToken(token, { ...verifyOpts, publicKeys: 'no keys' })).rejects.toThrow('data does not contain any valid RSA or ECDSA public keys');
    });

    it('leaves tokens of other issuers and non-JWTs to other authenticators', async () => {
      expect(await verifyServiceAccountToken('static-token', verifyOpts)).toBeNull();
      expect(await verifyServiceAccountToken('a.b.c', verifyOpts)).toBeNull();
      const { token } = issueServiceAccountToken({ ...base, issuer: 'https://elsewhere' });
      expect(await verifyServiceAccountToken(token, verifyOpts)).toBeNull();
      expect(await verifyServiceAccountToken(issueServiceAccountToken(base).token, { ...verifyOpts, publicKeys: [] })).toBeNull();
    });

    it('rejects a tampered token, a token signed by another key and an unsigned token', async () => {
      const { token } = issueServiceAccountToken(base);
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      claims['kubernetes.io'].serviceaccount.name = 'admin';
      const tampered = [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.');
      await expect(verifyServiceAccountToken(tampered, verifyOpts)).rejects.toThrow(new AuthenticationError('square/go-jose: error in cryptographic primitive'));

      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      await expect(verifyServiceAccountToken(issueServiceAccountToken({ ...base, privateKey: stranger }).token, verifyOpts)).rejects.toThrow('error in cryptographic primitive');

      const none = [Buffer.from('{"alg":"none"}').toString('base64url'), p, ''].join('.');
      await expect(verifyServiceAccountToken(none, verifyOpts)).rejects.toThrow('error in cryptographic primitive');
    });

    it('rejects a token for another audience', async () => {
      const { token } = issueServiceAccountToken({ ...base, audiences: ['vault', 'other'] });
      await expect(verifyServiceAccountToken(token, verifyOpts)).rejects.toThrow(
        'token audiences ["vault" "other"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
      );
      expect(await verifyServiceAccountToken(token, { ...verifyOpts, audiences: ['api', 'vault'] })).not.toBeNull();
    });

    it('rejects expired and not yet valid tokens, with a minute of leeway', async () => {
      const { token } = issueServiceAccountToken({ ...base, expirationSeconds: 600 });
      const at = (ms: number) => verifyServiceAccountToken(token, { ...verifyOpts, now: ms });
      expect(await at(now + 600_000 + 59_000)).not.toBeNull();
      await expect(at(now + 600_000 + 61_000)).rejects.toThrow('service account token has expired');
      expect(await at(now - 59_000)).not.toBeNull();
      await expect(at(now - 61_000)).rejects.toThrow('service account token is not valid yet');
    });

    describe('with a lookup of the live objects', () => {
      const podToken = issueServiceAccountToken({ ...base, boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } }).token;
      const world = (objects: Record<string, ObjectState | null>) => async (resource: string, namespace: string, name: string) => objects[`${resource}/${namespace}/${name}`] ?? null;
      const live = { 'serviceaccounts/default/builder': { uid: 'sa-uid' }, 'pods/default/web-0': { uid: 'pod-uid' } };

      it('accepts the token while the service account and pod exist with the same uids', async () => {
        expect((await verifyServiceAccountToken(podToken, { ...verifyOpts, lookup: world(live) }))?.name).toBe('system:serviceaccount:default:builder');
      });

      it('rejects the token once the service account is gone, re-created or deleted', async () => {
        const verify = (objects: Record<string, ObjectState | null>) => verifyServiceAccountToken(podToken, { ...verifyOpts, lookup: world(objects) });
        await expect(verify({ ...live, 'serviceaccounts/default/builder': null })).rejects.toThrow('serviceaccounts "builder" not found');
        await expect(verify({ ...live, 'serviceaccounts/default/builder': { uid: 'new-uid' } })).rejects.toThrow('service account UID (new-uid) does not match claim (sa-uid)');
        const longAgo = new Date(now - 120_000).toISOString();
        await expect(verify({ ...live, 'serviceaccounts/default/builder': { uid: 'sa-uid', deletionTimestamp: longAgo } })).rejects.toThrow(
          'service account default/builder has been deleted',
        );
        const justNow = new Date(now - 30_000).toISOString();
        expect(await verify({ ...live, 'serviceaccounts/default/builder': { uid: 'sa-uid', deletionTimestamp: justNow } })).not.toBeNull();
      });

      it('rejects the token once its pod is gone or re-created', async () => {
        const verify = (objects: Record<string, ObjectState | null>) => verifyServiceAccountToken(podToken, { ...verifyOpts, lookup: world(objects) });
        await expect(verify({ ...live, 'pods/default/web-0': null })).rejects.toThrow('service account token has been invalidated');
        await expect(verify({ ...live, 'pods/default/web-0': { uid: 'other' } })).rejects.toThrow('pod UID (other) does not match service account pod ref claim (pod-uid)');
      });
    });
  });
});
