// The *.k8s.io aliases (--k8s-aliases): every *.platform.io group is also served, listed in
// discovery and published in OpenAPI under its *.k8s.io name, so that manifests and tools
// written for Kubernetes find it. The alias is another name for the same objects: one store,
// one authorization (as the platform group), answers in the name the client used.
import type { ResourceDefinition } from '@plinth/registry';

const platformSuffix = '.platform.io';
const k8sSuffix = '.k8s.io';

// k8sAliasOf is the *.k8s.io alias of a *.platform.io group, or null for a group without one
// (the core group, apps, batch, custom resources' own groups).
export function k8sAliasOf(group: string): string | null {
  return group.endsWith(platformSuffix) ? `${group.slice(0, -platformSuffix.length)}${k8sSuffix}` : null;
}

// servedGroupOf maps a *.k8s.io alias onto the *.platform.io group it names, when aliases are
// served; any other group is itself.
export function servedGroupOf(group: string, aliases: boolean): string {
  if (!aliases || !group.endsWith(k8sSuffix)) return group;
  return `${group.slice(0, -k8sSuffix.length)}${platformSuffix}`;
}

// aliasDefinitions are the definitions the aliases publish: each definition of a *.platform.io
// group under its *.k8s.io name. Each alias definition is made once per definition, so that a
// caller caching by identity (the OpenAPI documents) sees the same objects on every call.
const aliasByDefinition = new WeakMap<ResourceDefinition, ResourceDefinition>();

export function aliasDefinitions(definitions: ResourceDefinition[]): ResourceDefinition[] {
  const aliases: ResourceDefinition[] = [];
  for (const def of definitions) {
    const group = k8sAliasOf(def.group);
    if (group === null) continue;
    let alias = aliasByDefinition.get(def);
    if (!alias) {
      alias = { ...def, group };
      aliasByDefinition.set(def, alias);
    }
    aliases.push(alias);
  }
  return aliases;
}
