// The ServiceAccount admission plugin's work on a pod, as pure functions over the pod
// (plugin/pkg/admission/serviceaccount/admission.go, v1.28): the account a pod runs as, whether
// its API token is mounted, the kube-api-access-<random> projected volume and its read-only
// mounts, the account's image pull secrets, and the checks on mirror pods. The API server looks
// the account up and turns a refusal into 403 Forbidden.
import { EnforceMountableSecretsAnnotation, KubeObject, MirrorPodAnnotationKey } from '@plinth/api';
import { generatedName } from '../../store/object-meta';

type Obj = Record<string, unknown>;

export const defaultServiceAccountName = 'default';
// serviceAccountVolumePrefix names the token volume: kube-api-access-<5 random characters>.
export const serviceAccountVolumePrefix = 'kube-api-access-';
// The token's mount path is a file path every client library reads, not a key: it keeps
// Kubernetes' spelling.
export const serviceAccountTokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
// boundTokenExpirationSeconds is WarnOnlyBoundTokenExpirationSeconds: an hour and 7 s.
const boundTokenExpirationSeconds = 3607;
const projectedDefaultMode = 420;

export interface ServiceAccount extends KubeObject {
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: { name?: string }[];
  secrets?: { name?: string }[];
}

interface Container {
  volumeMounts?: { name?: string; readOnly?: boolean; mountPath?: string }[];
}

interface PodSpec {
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  volumes?: Obj[];
  initContainers?: Container[];
  containers?: Container[];
  ephemeralContainers?: Container[];
  imagePullSecrets?: { name?: string }[];
}

function podSpec(pod: KubeObject): PodSpec {
  if (typeof pod.spec !== 'object' || pod.spec === null) pod.spec = {};
  return pod.spec as PodSpec;
}

export function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[MirrorPodAnnotationKey] !== undefined;
}

// serviceAccountNameOf is the account a pod names, reading the deprecated spec.serviceAccount
// when serviceAccountName is empty, as the v1 conversion does ('' when it names none).
export function serviceAccountNameOf(pod: KubeObject): string {
  const spec = (pod.spec ?? {}) as PodSpec;
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '') return spec.serviceAccountName;
  return typeof spec.serviceAccount === 'string' ? spec.serviceAccount : '';
}

// defaultServiceAccount sets the account of a pod that names none to "default" and returns the
// account's name; spec.serviceAccount mirrors spec.serviceAccountName as the v1 conversion has it.
export function defaultServiceAccount(pod: KubeObject): string {
  const name = serviceAccountNameOf(pod) || defaultServiceAccountName;
  setServiceAccountName(pod, name);
  return name;
}

// setServiceAccountName writes the account in both fields, as the v1 conversion does.
export function setServiceAccountName(pod: KubeObject, name: string): void {
  const spec = podSpec(pod);
  spec.serviceAccountName = name;
  spec.serviceAccount = name;
}

// shouldAutomount: the pod's choice wins, then the account's; by default the token is mounted.
export function shouldAutomount(account: ServiceAccount, pod: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as PodSpec;
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

// tokenVolume is the projected volume holding the token, the cluster's CA and the namespace.
export function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: boundTokenExpirationSeconds, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: projectedDefaultMode,
    },
  };
}

// mountServiceAccountToken mounts the token volume read-only at the service-account path in
// every init container and container that mounts nothing there, reusing an existing
// kube-api-access-* volume, and adds the volume when a container needs it. newName makes the
// volume's name (random by default).
export function mountServiceAccountToken(pod: KubeObject, newName: (base: string) => string = generatedName): void {
  const spec = podSpec(pod);
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  const existing = volumes.find((v) => typeof v?.name === 'string' && v.name.startsWith(serviceAccountVolumePrefix));
  const volumeName = existing ? (existing.name as string) : newName(serviceAccountVolumePrefix);
  let needsVolume = false;
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if (typeof container !== 'object' || container === null) continue;
    const mounts = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
    if (mounts.some((m) => m?.mountPath === serviceAccountTokenMountPath)) continue;
    container.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: serviceAccountTokenMountPath }];
    needsVolume = true;
  }
  if (!existing && needsVolume) spec.volumes = [...volumes, tokenVolume(volumeName)];
}

// copyImagePullSecrets gives a pod without image pull secrets those of its account.
export function copyImagePullSecrets(pod: KubeObject, account: ServiceAccount): void {
  const spec = podSpec(pod);
  if (Array.isArray(spec.imagePullSecrets) && spec.imagePullSecrets.length > 0) return;
  const secrets = (account.imagePullSecrets ?? []).map((s) => ({ name: s?.name ?? '' }));
  if (secrets.length > 0) spec.imagePullSecrets = secrets;
}

// validateMirrorPod is the plugin's check of a mirror pod: it may reference neither an account,
// nor secrets, nor a service-account token.
export function validateMirrorPod(pod: KubeObject): string | null {
  if (serviceAccountNameOf(pod) !== '') return 'mirror pods may not reference service accounts';
  if (podSecretNames(pod).length > 0) return 'mirror pods may not reference secrets';
  const volumes = ((pod.spec ?? {}) as PodSpec).volumes ?? [];
  for (const volume of volumes) {
    const sources = (volume?.projected as { sources?: Obj[] } | undefined)?.sources ?? [];
    if (sources.some((s) => s?.serviceAccountToken !== undefined && s?.serviceAccountToken !== null)) {
      return 'mirror pods may not use a service account token';
    }
  }
  return null;
}

// limitSecretReferences is the check for an account that enforces its mountable secrets
// (annotation platform.io/enforce-mountable-secrets: "true"): the pod's secret volumes and its
// containers' env secrets must be among the account's secrets, and its image pull secrets among
// the account's image pull secrets.
export function limitSecretReferences(account: ServiceAccount, pod: KubeObject): string | null {
  if (account.metadata.annotations?.[EnforceMountableSecretsAnnotation] !== 'true') return null;
  const sa = account.metadata.name;
  const notReferenced = `is not allowed because service account ${sa} does not reference that secret`;
  const mountable = new Set((account.secrets ?? []).map((s) => s?.name));
  const spec = (pod.spec ?? {}) as PodSpec;
  for (const volume of spec.volumes ?? []) {
    const secret = (volume?.secret as { secretName?: string } | undefined)?.secretName;
    if (volume?.secret && !mountable.has(secret)) return `volume with secret.secretName="${secret ?? ''}" ${notReferenced}`;
  }
  const kinds: [string, EnvContainer[]][] = [
    ['init container', (spec.initContainers ?? []) as EnvContainer[]],
    ['container', (spec.containers ?? []) as EnvContainer[]],
  ];
  for (const [kind, containers] of kinds) {
    for (const container of containers) {
      for (const env of container?.env ?? []) {
        const ref = env?.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name)) return `${kind} ${container.name ?? ''} with envVar ${env.name ?? ''} referencing secret.secretName="${ref.name ?? ''}" ${notReferenced}`;
      }
      for (const from of container?.envFrom ?? []) {
        const ref = from?.secretRef;
        if (ref && !mountable.has(ref.name)) return `${kind} ${container.name ?? ''} with envFrom referencing secret.secretName="${ref.name ?? ''}" ${notReferenced}`;
      }
    }
  }
  const pullable = new Set((account.imagePullSecrets ?? []).map((s) => s?.name));
  const pullSecrets = spec.imagePullSecrets ?? [];
  for (let i = 0; i < pullSecrets.length; i++) {
    const name = pullSecrets[i]?.name;
    if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name ?? ''}" is not allowed because service account ${sa} does not reference that imagePullSecret`;
  }
  return null;
}

interface EnvContainer {
  name?: string;
  env?: { name?: string; valueFrom?: { secretKeyRef?: { name?: string } } }[];
  envFrom?: { secretRef?: { name?: string } }[];
}

function containerEnvSecretNames(container: Container): string[] {
  const c = container as EnvContainer;
  const names: string[] = [];
  for (const from of c.envFrom ?? []) if (typeof from?.secretRef?.name === 'string') names.push(from.secretRef.name);
  for (const env of c.env ?? []) if (typeof env?.valueFrom?.secretKeyRef?.name === 'string') names.push(env.valueFrom.secretKeyRef.name);
  return names;
}

// podSecretNames lists the secrets a pod references (VisitPodSecretNames, without the volume
// plugins Plinth does not serve): image pull secrets, env secrets in every container, secret
// volumes and projected secrets.
function podSecretNames(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as PodSpec;
  const names: string[] = (spec.imagePullSecrets ?? []).map((s) => s?.name ?? '').filter((n) => n !== '');
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    names.push(...containerEnvSecretNames(container));
  }
  for (const volume of spec.volumes ?? []) {
    const secret = (volume?.secret as { secretName?: string } | undefined)?.secretName;
    if (secret) names.push(secret);
    const sources = (volume?.projected as { sources?: { secret?: { name?: string } }[] } | undefined)?.sources ?? [];
    for (const source of sources) if (source?.secret?.name) names.push(source.secret.name);
  }
  return names;
}
