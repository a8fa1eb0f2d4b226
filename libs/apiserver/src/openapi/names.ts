// Names in the published OpenAPI: definition names of kinds, document paths of group versions,
// operation ids and tags, after kube-openapi and k8s.io/apiserver/pkg/endpoints/openapi.
//
// Definition names of kinds: a kind whose schema carries a ref is published under that ref. Any
// other kind of a built-in group (a *.platform.io group, a *.k8s.io alias or a dot-less group
// such as batch) is named as Kubernetes names the Go type of its *.k8s.io twin:
// io.k8s.api.<package>.<version>.<Kind>, the package being the group's first label
// (rbac.authorization.platform.io → io.k8s.api.rbac.v1.ClusterRole) with the few exceptions
// Kubernetes has. Other groups (custom resources) are named as kube-apiextensions names them: the
// group reversed, then version and kind (stable.example.com → com.example.stable.v1.CronTab).
import type { ResourceDefinition } from '@plinth/registry';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

const builtinSuffixes = ['.platform.io', '.k8s.io'];

// packageOverrides are the built-in groups whose Go package is not io.k8s.api.<first label>.
const packageOverrides: Record<string, string> = {
  apiextensions: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  apiregistration: 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
  'internal.apiserver': 'io.k8s.api.apiserverinternal',
};

export const metaPackage = 'io.k8s.apimachinery.pkg.apis.meta.v1';

// builtinGroupName is the group without its .platform.io (or .k8s.io) suffix; null for a group
// that is not built in.
function builtinGroupName(group: string): string | null {
  for (const suffix of builtinSuffixes) {
    if (group.endsWith(suffix)) return group.slice(0, -suffix.length);
  }
  return group.includes('.') ? null : group;
}

export function definitionPackage(group: string, version: string): string {
  if (group === '') return `io.k8s.api.core.${version}`;
  const short = builtinGroupName(group);
  if (short === null) return `${group.split('.').reverse().join('.')}.${version}`;
  return `${packageOverrides[short] ?? `io.k8s.api.${short.split('.')[0]}`}.${version}`;
}

export function kindDefinitionName(def: ResourceDefinition): string {
  return def.schema.ref ?? `${definitionPackage(def.group, def.version)}.${def.kind}`;
}

// listDefinitionName sits beside the kind's name: io.k8s.api.batch.v1.JobList.
export function listDefinitionName(def: ResourceDefinition): string {
  const name = kindDefinitionName(def);
  return `${name.slice(0, name.lastIndexOf('.') + 1)}${def.listKind}`;
}

export function metaDefinition(kind: string): string {
  return `${metaPackage}.${kind}`;
}

// groupVersionPath is the key of a group version in /openapi/v3: api/v1 or apis/<group>/<version>.
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

// operationGroupVersion is what GetOperationIDAndTags puts between the verb and the kind:
// CoreV1, BatchV1, RbacAuthorizationV1 (the .platform.io suffix dropped as .k8s.io is).
export function operationGroupVersion(group: string, version: string): string {
  return toValidOperationId(trimmedGroup(group), true) + toValidOperationId(version, true);
}

// operationTag is the tag of a group version's operations: core_v1, rbacAuthorization_v1.
export function operationTag(group: string, version: string): string {
  return `${toValidOperationId(trimmedGroup(group), false)}_${toValidOperationId(version, false)}`;
}

function trimmedGroup(group: string): string {
  if (group === '') return 'core';
  for (const suffix of builtinSuffixes) {
    if (group.endsWith(suffix)) return group.slice(0, -suffix.length);
  }
  return group;
}

// toValidOperationId keeps letters, underscores and (after the first character) digits; any
// other character is dropped and capitalizes the letter after it.
export function toValidOperationId(value: string, capitalizeFirstLetter: boolean): string {
  let out = '';
  let capitalize = capitalizeFirstLetter;
  [...value].forEach((ch, i) => {
    if (/\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
  });
  return out;
}
