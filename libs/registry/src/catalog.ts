// ResourceCatalog is the served registry: the definitions --runtime-config enables, indexed for
// routing and discovery. Custom resource definitions add entries at run time.
import { isServed, RuntimeConfig } from './runtime-config';
import { ResourceDefinition } from './resource';

export interface GroupVersions {
  group: string;
  // versions in preference order: GA before beta before alpha, newer first.
  versions: string[];
}

export class ResourceCatalog {
  private readonly byPath = new Map<string, ResourceDefinition>();
  private readonly byGroupVersion = new Map<string, ResourceDefinition[]>();
  private readonly groupOrder: string[] = [];

  constructor(definitions: ResourceDefinition[], private readonly runtimeConfig: RuntimeConfig = { entries: new Map() }) {
    for (const def of definitions) this.add(def);
  }

  add(def: ResourceDefinition): void {
    if (!isServed(def, this.runtimeConfig)) return;
    this.byPath.set(pathKey(def.group, def.version, def.resource), def);
    const gv = `${def.group}/${def.version}`;
    const list = this.byGroupVersion.get(gv) ?? [];
    list.push(def);
    this.byGroupVersion.set(gv, list);
    if (!this.groupOrder.includes(def.group)) this.groupOrder.push(def.group);
  }

  remove(group: string, version: string, resource: string): void {
    const def = this.byPath.get(pathKey(group, version, resource));
    if (!def) return;
    this.byPath.delete(pathKey(group, version, resource));
    const gv = `${group}/${version}`;
    const remaining = (this.byGroupVersion.get(gv) ?? []).filter((d) => d !== def);
    if (remaining.length) this.byGroupVersion.set(gv, remaining);
    else this.byGroupVersion.delete(gv);
    if (!this.groups().some((g) => g.group === group)) this.groupOrder.splice(this.groupOrder.indexOf(group), 1);
  }

  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.byPath.get(pathKey(group, version, resource));
  }

  // byKind finds the definition serving a kind in a group version.
  byKind(group: string, version: string, kind: string): ResourceDefinition | undefined {
    return this.resources(group, version).find((d) => d.kind === kind);
  }

  resources(group: string, version: string): ResourceDefinition[] {
    return this.byGroupVersion.get(`${group}/${version}`) ?? [];
  }

  all(): ResourceDefinition[] {
    return [...this.byPath.values()];
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.byGroupVersion.has(`${group}/${version}`);
  }

  groups(): GroupVersions[] {
    return this.groupOrder
      .map((group) => ({
        group,
        versions: [...this.byGroupVersion.keys()]
          .filter((gv) => gv.slice(0, gv.lastIndexOf('/')) === group)
          .map((gv) => gv.slice(gv.lastIndexOf('/') + 1))
          .sort(compareVersions),
      }))
      .filter((g) => g.versions.length > 0);
  }
}

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

// compareVersions orders Kubernetes versions by priority: GA > beta > alpha, higher numbers
// first (v2 > v1 > v1beta2 > v1beta1 > v1alpha1).
export function compareVersions(a: string, b: string): number {
  return versionPriority(b) - versionPriority(a);
}

function versionPriority(version: string): number {
  const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (!match) return -1;
  const major = Number(match[1]);
  const level = match[2] === 'alpha' ? 0 : match[2] === 'beta' ? 1 : 2;
  const minor = match[3] ? Number(match[3]) : 0;
  return level * 1_000_000 + major * 1000 + minor;
}
