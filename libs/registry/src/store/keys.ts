// Storage keys: /registry/<group>/<resource>/<namespace>/<name>, cluster-scoped types without
// the namespace; the core group is spelled "core".
import { ResourceDefinition } from '../resource';

export function groupSegment(group: string): string {
  return group === '' ? 'core' : group;
}

export function resourcePrefix(def: ResourceDefinition): string {
  return `/registry/${groupSegment(def.group)}/${def.resource}/`;
}

// collectionPrefix is the key prefix of one namespace's objects, or of all of them when
// namespace is empty.
export function collectionPrefix(def: ResourceDefinition, namespace: string | undefined): string {
  const base = resourcePrefix(def);
  return def.namespaced && namespace ? `${base}${namespace}/` : base;
}

export function objectKey(def: ResourceDefinition, namespace: string | undefined, name: string): string {
  return def.namespaced ? `${resourcePrefix(def)}${namespace}/${name}` : `${resourcePrefix(def)}${name}`;
}

// kubeKeyPrefixes are the built-in resources kube-apiserver keeps under another name in etcd.
const kubeKeyPrefixes: Readonly<Record<string, string>> = {
  nodes: 'minions',
  replicationcontrollers: 'controllers',
  services: 'services/specs',
  endpoints: 'services/endpoints',
};

// kubeStorageKey is the key kube-apiserver's etcd holds the object at, which its storage errors
// name: /registry/<resource>/ for built-in types (with the historic exceptions), and
// /registry/<group>/<resource>/ for custom resources.
export function kubeStorageKey(def: ResourceDefinition, namespace: string | undefined, name: string): string {
  const prefix = def.unstructured ? `${def.group}/${def.resource}` : def.group === '' ? (kubeKeyPrefixes[def.resource] ?? def.resource) : def.resource;
  return def.namespaced ? `/registry/${prefix}/${namespace}/${name}` : `/registry/${prefix}/${name}`;
}

// preconditionFailed is the message of kube-apiserver's Conflict on a failed precondition: the
// invalid-object StorageError its storage raises for the key.
export function preconditionFailed(def: ResourceDefinition, namespace: string | undefined, name: string, detail: string): string {
  return `StorageError: invalid object, Code: 4, Key: ${kubeStorageKey(def, namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${detail}`;
}
