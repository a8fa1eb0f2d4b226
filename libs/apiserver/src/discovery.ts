// Discovery documents (/api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version}), derived
// from the catalog as kube-apiserver's legacy discovery serves them, and the aggregated form.
// With aliases on, the *.k8s.io aliases are listed after the platform.io groups.
import { GroupVersions, ResourceCatalog, ResourceDefinition } from '@plinth/registry';
import { k8sAliasOf } from './aliases';
import { aggregatedDiscoveryOrder, legacyDiscoveryOrder } from './discovery-order';

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

export function apiResourceList(catalog: ResourceCatalog, group: string, version: string) {
  const resources: ApiResource[] = [];
  for (const def of [...catalog.resources(group, version)].sort((a, b) => (a.resource < b.resource ? -1 : 1))) {
    resources.push(mainResource(def));
    for (const sub of def.subresources ?? []) resources.push(subresource(def, sub));
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources };
}

function mainResource(def: ResourceDefinition): ApiResource {
  const resource: ApiResource = {
    name: def.resource,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: [...def.verbs].sort(),
  };
  if (def.shortNames?.length) resource.shortNames = def.shortNames;
  if (def.categories?.length) resource.categories = def.categories;
  return resource;
}

const subresourceVerbs: Record<string, { verbs: string[]; kind?: string; group?: string; version?: string }> = {
  status: { verbs: ['get', 'patch', 'update'] },
  finalize: { verbs: ['update'] },
  scale: { verbs: ['get', 'patch', 'update'], kind: 'Scale', group: 'autoscaling', version: 'v1' },
  binding: { verbs: ['create'], kind: 'Binding', version: 'v1' },
  token: { verbs: ['create'], kind: 'TokenRequest', group: 'authentication.platform.io', version: 'v1' },
};

function subresource(def: ResourceDefinition, name: string): ApiResource {
  const known = subresourceVerbs[name] ?? { verbs: ['get'] };
  const resource: ApiResource = { name: `${def.resource}/${name}`, singularName: '', namespaced: def.namespaced, kind: known.kind ?? def.kind, verbs: known.verbs };
  if (known.group) resource.group = known.group;
  if (known.version) resource.version = known.version;
  return resource;
}

// Aggregated discovery (apidiscovery v2beta1, as kube-apiserver 1.28 serves it on /api and
// /apis when asked with `as=APIGroupDiscoveryList`): every group, version and resource in one
// document, so that kubectl discovers with one request.
export interface DiscoveryMediaType {
  group: string;
  version: string;
}

const discoveryGroups = new Set(['apidiscovery.k8s.io', 'apidiscovery.platform.io']);

// aggregatedDiscoveryRequested picks the aggregated form from an Accept header, if asked for in
// a version served (v2beta1); null means the legacy documents.
export function aggregatedDiscoveryRequested(accept: string | undefined): DiscoveryMediaType | null {
  for (const clause of (accept ?? '').split(',')) {
    const params = Object.fromEntries(
      clause
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=').map((x) => x.trim()))
        .filter((kv) => kv.length === 2),
    ) as Record<string, string>;
    const type = clause.split(';')[0].trim();
    if (type === 'application/json' && params.as === undefined) return null;
    if (type === 'application/json' && params.as === 'APIGroupDiscoveryList' && discoveryGroups.has(params.g) && params.v === 'v2beta1') {
      return { group: params.g, version: params.v };
    }
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
      metadata: { name: g.name, creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        resources: [...catalog.resources(g.group, version)]
          .sort((a, b) => (a.resource < b.resource ? -1 : 1))
          .map((def) => discoveryResource(g.name === g.group ? def : { ...def, group: g.name })),
        freshness: 'Current',
      })),
    })),
  };
}

function discoveryResource(def: ResourceDefinition) {
  const resource: Record<string, unknown> = {
    resource: def.resource,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: [...def.verbs].sort(),
  };
  if (def.shortNames?.length) resource.shortNames = def.shortNames;
  if (def.categories?.length) resource.categories = def.categories;
  const subresources = (def.subresources ?? []).map((name) => {
    const known = subresourceVerbs[name] ?? { verbs: ['get'] };
    return { subresource: name, responseKind: { group: known.group ?? def.group, version: known.version ?? def.version, kind: known.kind ?? def.kind }, verbs: known.verbs };
  });
  if (subresources.length) resource.subresources = subresources;
  return resource;
}
