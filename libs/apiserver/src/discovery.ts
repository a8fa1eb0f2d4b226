// Discovery documents (/api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version}), derived
// from the catalog as kube-apiserver's legacy discovery serves them. Alias groups are served
// but not listed.
import { ResourceCatalog, ResourceDefinition } from '@plinth/registry';

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

export function apiGroupList(catalog: ResourceCatalog) {
  const groups = catalog
    .groups()
    .filter((g) => g.group !== '')
    .map((g) => {
      const versions = g.versions.map((version) => ({ groupVersion: groupVersion(g.group, version), version }));
      return { name: g.group, versions, preferredVersion: versions[0] };
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
