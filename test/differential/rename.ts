// rename.ts maps Kubernetes' names onto Plinth's: `*.k8s.io` groups become `*.platform.io`, and
// `kubernetes.io/` key prefixes (labels, annotations, finalizers, taints: `kubernetes.io/…`,
// `batch.kubernetes.io/…`) become `platform.io/…`. Links (https://kubernetes.io/docs/…,
// https://git.k8s.io/…) stay as they are, and so do paths that are not keys (the token mount
// /var/run/secrets/kubernetes.io/serviceaccount).

const keyPrefix = /(https?:\/\/[^\s"'<>]*|\/var\/run\/secrets\/kubernetes\.io\/)|kubernetes\.io\//g;
const group = /(https?:\/\/[^\s"'<>]*)|\bk8s\.io\b/g;

export function renameKeyPrefixes(text: string): string {
  return text.replace(keyPrefix, (match, link?: string) => link ?? 'platform.io/');
}

export function renameGroups(text: string): string {
  return text.replace(group, (match, link?: string) => link ?? 'platform.io');
}

export function renameAll(text: string): string {
  return renameGroups(renameKeyPrefixes(text));
}

// mapStrings applies f to every string (and object key) of a JSON value.
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapStrings(v, f)]));
  }
  return value;
}
