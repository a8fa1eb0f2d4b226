// Discovery documents (/api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version}), derived
// from the catalog as kube-apiserver's legacy discovery serves them, and the aggregated form.
// With aliases on, the *.k8s.io aliases are listed after the platform.io groups.
import { createHash } from 'node:crypto';
import { GroupVersions, ResourceCatalog, ResourceDefinition } from '@plinth/registry';
import { k8sAliasOf } from './aliases';
import { aggregatedDiscoveryOrder, legacyDiscoveryOrder } from './discovery-order';
import { parseAccept } from './negotiation';

export interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

export function apiGroup(catalog: ResourceCatalog, group: string) {
  const entry = catalog.groups().find((g) => g.group === group);
  if (!entry) return null;
  const versions = entry.versions.map((version) => ({ groupVersion: groupVersion(group, version), version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

// ListedGroup is a group as discovery lists it: under its own name, or under its *.k8s.io alias
// (name) while serving the catalog's group.
interface ListedGroup {
  name: string;
  group: string;
  versions: string[];
}

// listedGroups are the catalog's groups in kube-apiserver's order, then, when aliases are served,
// their *.k8s.io aliases in the same order: after every platform.io group, so that a client
// mapping a resource name to the first group serving it (kubectl get roles) picks the platform
// group, while a manifest naming the alias still finds its kind.
function listedGroups(groups: GroupVersions[], aliases: boolean): ListedGroup[] {
  const own = groups.map((g) => ({ name: g.group, group: g.group, versions: g.versions }));
  if (!aliases) return own;
  const aliased = own.flatMap((g) => {
    const alias = k8sAliasOf(g.group);
    return alias === null ? [] : [{ ...g, name: alias }];
  });
  return [...own, ...aliased];
}

export function apiGroupList(catalog: ResourceCatalog, aliases = false) {
  const named = catalog.groups().filter((g) => g.group !== '');
  const groups = listedGroups(legacyDiscoveryOrder(named), aliases).map((g) => {
    const versions = g.versions.map((version) => ({ groupVersion: groupVersion(g.name, version), version }));
    return { name: g.name, versions, preferredVersion: versions[0] };
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

// coreResourceList is /api/v1's document, which kube-apiserver writes without an apiVersion.
export function coreResourceList(catalog: ResourceCatalog) {
  const { apiVersion: _omitted, ...list } = apiResourceList(catalog, '', 'v1');
  return list;
}

export function apiResourceList(catalog: ResourceCatalog, group: string, version: string) {
  const resources: ApiResource[] = [];
  for (const def of [...catalog.resources(group, version)].sort((a, b) => (a.resource < b.resource ? -1 : 1))) {
    resources.push(mainResource(def));
    for (const sub of listedSubresources(def)) resources.push(subresource(def, sub));
  }
  // The core group's list carries no apiVersion: kube-apiserver serves it from a struct whose
  // TypeMeta sets only the kind.
  if (group === '') return { kind: 'APIResourceList', groupVersion: groupVersion(group, version), resources };
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources };
}

function mainResource(def: ResourceDefinition): ApiResource {
  const resource: ApiResource = {
    name: def.resource,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: discoveryVerbs(def),
  };
  if (def.shortNames?.length) resource.shortNames = def.shortNames;
  if (def.categories?.length) resource.categories = def.categories;
  if (!def.virtual) resource.storageVersionHash = storageVersionHash(def);
  return resource;
}

// listedSubresources are a resource's subresources in discovery's order: by name for a built-in
// resource (kube-apiserver installs its paths sorted), status then scale for a custom resource.
function listedSubresources(def: ResourceDefinition): string[] {
  const subresources = def.subresources ?? [];
  return def.unstructured ? subresources : [...subresources].sort();
}

// discoveryVerbs are a resource's verbs as discovery lists them: sorted for a built-in resource;
// for a custom resource in apiextensions-apiserver's own order, only the reading and deleting
// ones while its definition is terminating.
function discoveryVerbs(def: ResourceDefinition): string[] {
  if (!def.unstructured) return [...def.verbs].sort();
  if (def.terminating) return ['delete', 'deletecollection', 'get', 'list', 'watch'];
  return ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
}

// storageVersionHash is kube-apiserver's (discovery.StorageVersionHash): the first 8 bytes of
// the SHA-256 of the stored group/version/kind, in base64, the group under its Kubernetes name
// so that the hash is the one kube-apiserver gives the same type.
export function storageVersionHash(def: ResourceDefinition): string {
  const gvk = `${k8sAliasOf(def.group) ?? def.group}/${def.storageVersion ?? def.version}/${def.kind}`;
  return createHash('sha256').update(gvk).digest().subarray(0, 8).toString('base64');
}

const subresourceVerbs: Record<string, { verbs: string[]; kind?: string; group?: string; version?: string }> = {
  status: { verbs: ['get', 'patch', 'update'] },
  finalize: { verbs: ['update'] },
  scale: { verbs: ['get', 'patch', 'update'], kind: 'Scale', group: 'autoscaling', version: 'v1' },
  binding: { verbs: ['create'], kind: 'Binding' },
  token: { verbs: ['create'], kind: 'TokenRequest', group: 'authentication.platform.io', version: 'v1' },
};

function subresource(def: ResourceDefinition, name: string): ApiResource {
  const known = subresourceVerbs[name] ?? { verbs: ['get'] };
  // group and version, when the subresource's kind is another group's, sit before kind as in
  // kube-apiserver's JSON.
  return {
    name: `${def.resource}/${name}`,
    singularName: '',
    namespaced: def.namespaced,
    ...(known.group ? { group: known.group } : {}),
    ...(known.version ? { version: known.version } : {}),
    kind: known.kind ?? def.kind,
    verbs: known.verbs,
  };
}

// Aggregated discovery (apidiscovery v2beta1, as kube-apiserver 1.28 serves it on /api and
// /apis when asked with `as=APIGroupDiscoveryList`): every group, version and resource in one
// document, so that kubectl discovers with one request.
export interface DiscoveryMediaType {
  group: string;
  version: string;
}

const discoveryGroups = new Set(['apidiscovery.k8s.io', 'apidiscovery.platform.io']);

// DiscoveryRepresentation is what an Accept header asks of a discovery path: the aggregated
// document (JSON), or the legacy one as JSON or YAML.
export interface DiscoveryRepresentation {
  aggregated?: DiscoveryMediaType;
  yaml: boolean;
}

// discoveryRepresentation negotiates a discovery path's answer as kube-apiserver 1.28 does
// (aggregated.WrappedHandler, then the legacy handler): clauses by quality, then in order; a
// clause asking for APIGroupDiscoveryList in a version served (v2beta1) picks the aggregated
// document where it is served (/api and /apis), any other transformation is skipped, and so is
// protobuf, which Plinth does not encode discovery in. null: nothing acceptable (406).
export function discoveryRepresentation(accept: string | undefined, aggregatedServed: boolean): DiscoveryRepresentation | null {
  for (const { type, subtype, params } of parseAccept(accept)) {
    if (params.as !== undefined || params.g !== undefined || params.v !== undefined) {
      const aggregated = params.as === 'APIGroupDiscoveryList' && discoveryGroups.has(params.g) && params.v === 'v2beta1';
      if (aggregated && aggregatedServed && type === 'application' && subtype === 'json') return { aggregated: { group: params.g, version: params.v }, yaml: false };
      continue;
    }
    if ((type === '*' && subtype === '*') || (type === 'application' && (subtype === '*' || subtype === 'json'))) return { yaml: false };
    if (type === 'application' && subtype === 'yaml') return { yaml: true };
  }
  return null;
}

export function aggregatedDiscovery(catalog: ResourceCatalog, legacy: boolean, mediaType: DiscoveryMediaType, aliases = false) {
  const served = catalog.groups().filter((g) => (legacy ? g.group === '' : g.group !== ''));
  const groups = listedGroups(aggregatedDiscoveryOrder(served), aliases);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `${mediaType.group}/${mediaType.version}`,
    metadata: {},
    items: groups.map((g) => ({
      // The core group's empty name is left out, as Go's omitempty leaves it.
      metadata: { ...(g.name === '' ? {} : { name: g.name }), creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        resources: [...catalog.resources(g.group, version)]
          .sort((a, b) => (a.resource < b.resource ? -1 : 1))
          .map((def) => discoveryResource(def)),
        freshness: 'Current',
      })),
    })),
  };
}

// discoveryResource is a resource as aggregated discovery lists it. As kube-apiserver 1.28
// writes them, a built-in resource's responseKind names a group and version only when they are
// not the resource's own (a scale subresource's autoscaling/v1 Scale); a custom resource's
// always does (apiextensions-apiserver writes its own).
function discoveryResource(def: ResourceDefinition) {
  const own = def.unstructured ? { group: def.group, version: def.version } : { group: '', version: '' };
  const resource: Record<string, unknown> = {
    resource: def.resource,
    responseKind: { ...own, kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: discoveryVerbs(def),
  };
  if (def.shortNames?.length) resource.shortNames = def.shortNames;
  if (def.categories?.length) resource.categories = def.categories;
  const subresources = listedSubresources(def).map((name) => {
    const known = subresourceVerbs[name] ?? { verbs: ['get'] };
    return { subresource: name, responseKind: { group: known.group ?? own.group, version: known.version ?? own.version, kind: known.kind ?? def.kind }, verbs: known.verbs };
  });
  if (subresources.length) resource.subresources = subresources;
  return resource;
}
