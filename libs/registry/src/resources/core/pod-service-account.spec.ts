import { KubeObject } from '@plinth/api';
import {
  copyImagePullSecrets,
  defaultServiceAccount,
  limitSecretReferences,
  mountServiceAccountToken,
  ServiceAccount,
  shouldAutomount,
  validateMirrorPod,
} from './pod-service-account';

const pod = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'team', ...(annotations ? { annotations } : {}) },
  spec,
});

const account = (fields: Partial<ServiceAccount> = {}, annotations?: Record<string, string>): ServiceAccount => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name: 'default', namespace: 'team', ...(annotations ? { annotations } : {}) },
  ...fields,
});

const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
const volume = {
  name: 'kube-api-access-abcde',
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  },
};
const fixedName = (base: string) => `${base}abcde`;

describe('ServiceAccount admission: the account', () => {
  it('defaults to "default" and mirrors serviceAccountName into the deprecated serviceAccount', () => {
    const p = pod({ containers: [] });
    expect(defaultServiceAccount(p)).toBe('default');
    expect(p.spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
  });

  it('keeps a named account, reading the deprecated field when serviceAccountName is empty', () => {
    const named = pod({ serviceAccountName: 'builder' });
    expect(defaultServiceAccount(named)).toBe('builder');
    expect(named.spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
    const deprecated = pod({ serviceAccount: 'legacy' });
    expect(defaultServiceAccount(deprecated)).toBe('legacy');
    expect(deprecated.spec).toMatchObject({ serviceAccountName: 'legacy', serviceAccount: 'legacy' });
  });

  it('automounts unless the pod, else the account, says no', () => {
    expect(shouldAutomount(account(), pod({}))).toBe(true);
    expect(shouldAutomount(account({ automountServiceAccountToken: false }), pod({}))).toBe(false);
    expect(shouldAutomount(account({ automountServiceAccountToken: false }), pod({ automountServiceAccountToken: true }))).toBe(true);
    expect(shouldAutomount(account(), pod({ automountServiceAccountToken: false }))).toBe(false);
  });
});

describe('ServiceAccount admission: mounting the token', () => {
  it('adds the kube-api-access volume and a read-only mount to every init container and container', () => {
    const p = pod({
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [
        { name: 'a', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
        { name: 'b', image: 'busybox' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    });
    mountServiceAccountToken(p, fixedName);
    expect(p.spec).toEqual({
      initContainers: [{ name: 'init', image: 'busybox', volumeMounts: [mount] }],
      containers: [
        { name: 'a', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }, mount] },
        { name: 'b', image: 'busybox', volumeMounts: [mount] },
      ],
      volumes: [{ name: 'data', emptyDir: {} }, volume],
    });
  });

  it('names the volume kube-api-access- and five random characters by default', () => {
    const p = pod({ containers: [{ name: 'a', image: 'busybox' }] });
    mountServiceAccountToken(p);
    const name = (p.spec as { volumes: { name: string }[] }).volumes[0].name;
    expect(name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('reuses an existing kube-api-access volume and leaves containers that mount the path alone', () => {
    const own = { name: 'kube-api-access-mine', projected: { sources: [] } };
    const custom = { name: 'custom', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    const p = pod({
      containers: [
        { name: 'a', image: 'busybox', volumeMounts: [custom] },
        { name: 'b', image: 'busybox' },
      ],
      volumes: [own],
    });
    mountServiceAccountToken(p, fixedName);
    expect(p.spec).toEqual({
      containers: [
        { name: 'a', image: 'busybox', volumeMounts: [custom] },
        { name: 'b', image: 'busybox', volumeMounts: [{ ...mount, name: 'kube-api-access-mine' }] },
      ],
      volumes: [own],
    });
  });

  it('adds no volume when every container already mounts the path', () => {
    const custom = { name: 'custom', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    const p = pod({ containers: [{ name: 'a', image: 'busybox', volumeMounts: [custom] }] });
    mountServiceAccountToken(p, fixedName);
    expect(p.spec).toEqual({ containers: [{ name: 'a', image: 'busybox', volumeMounts: [custom] }] });
  });
});

describe('ServiceAccount admission: secrets', () => {
  it("copies the account's image pull secrets to a pod without any", () => {
    const sa = account({ imagePullSecrets: [{ name: 'registry' }] });
    const bare = pod({});
    copyImagePullSecrets(bare, sa);
    expect(bare.spec).toEqual({ imagePullSecrets: [{ name: 'registry' }] });
    const own = pod({ imagePullSecrets: [{ name: 'mine' }] });
    copyImagePullSecrets(own, sa);
    expect(own.spec).toEqual({ imagePullSecrets: [{ name: 'mine' }] });
  });

  it('limits secret references only when the account enforces mountable secrets', () => {
    const p = pod({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] });
    expect(limitSecretReferences(account(), p)).toBeNull();
    const enforcing = account({ secrets: [{ name: 'allowed' }] }, { 'platform.io/enforce-mountable-secrets': 'true' });
    expect(limitSecretReferences(enforcing, p)).toBe('volume with secret.secretName="other" is not allowed because service account default does not reference that secret');
    const env = pod({ containers: [{ name: 'c', env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'pw', key: 'k' } } }] }] });
    expect(limitSecretReferences(enforcing, env)).toBe(
      'container c with envVar PW referencing secret.secretName="pw" is not allowed because service account default does not reference that secret',
    );
    const envFrom = pod({ initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'pw' } }] }] });
    expect(limitSecretReferences(enforcing, envFrom)).toBe(
      'init container i with envFrom referencing secret.secretName="pw" is not allowed because service account default does not reference that secret',
    );
    const pull = pod({ imagePullSecrets: [{ name: 'registry' }] });
    expect(limitSecretReferences(enforcing, pull)).toBe(
      'imagePullSecrets[0].name="registry" is not allowed because service account default does not reference that imagePullSecret',
    );
    expect(limitSecretReferences(enforcing, pod({ volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] }))).toBeNull();
  });

  it('refuses mirror pods that reference an account, secrets or a token', () => {
    const mirror = { 'platform.io/config.mirror': 'hash' };
    expect(validateMirrorPod(pod({ containers: [] }, mirror))).toBeNull();
    expect(validateMirrorPod(pod({ serviceAccountName: 'default' }, mirror))).toBe('mirror pods may not reference service accounts');
    expect(validateMirrorPod(pod({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }, mirror))).toBe('mirror pods may not reference secrets');
    expect(validateMirrorPod(pod({ volumes: [volume] }, mirror))).toBe('mirror pods may not use a service account token');
  });
});
