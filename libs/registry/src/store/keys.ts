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
