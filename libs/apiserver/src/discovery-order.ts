// The order of groups in /apis, as kube-apiserver 1.28 lists them: by the group priority its
// aggregator gives each built-in group (cmd/kube-apiserver/app/aggregator.go,
// apiVersionPriorities; custom resources' groups get 1000 from the CRD registration controller),
// higher first. Ties are broken as each document breaks them: legacy discovery sorts APIServices
// by name (`<version>.<group>`, kube-aggregator's ByGroupPriorityMinimum) and lists a group where
// its first APIService falls; aggregated discovery sorts groups by name.
import type { GroupVersions } from '@plinth/registry';

// groupPriorities are kube-apiserver's, with the *.k8s.io groups under their platform.io names.
const groupPriorities: Record<string, number> = {
  '': 18000,
  apps: 17800,
  'events.platform.io': 17750,
  'authentication.platform.io': 17700,
  'authorization.platform.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.platform.io': 17300,
  'networking.platform.io': 17200,
  policy: 17100,
  'rbac.authorization.platform.io': 17000,
  'storage.platform.io': 16800,
  'apiextensions.platform.io': 16700,
  'admissionregistration.platform.io': 16700,
  'scheduling.platform.io': 16600,
  'coordination.platform.io': 16500,
  'node.platform.io': 16300,
  'discovery.platform.io': 16200,
  'flowcontrol.apiserver.platform.io': 16100,
  'internal.apiserver.platform.io': 16000,
  'resource.platform.io': 15900,
};

// customGroupPriority is what a group outside the table (a custom resource's) gets.
const customGroupPriority = 1000;

function groupPriority(group: string): number {
  return groupPriorities[group] ?? customGroupPriority;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// legacyDiscoveryOrder orders groups as /apis (APIGroupList) lists them.
export function legacyDiscoveryOrder<G extends GroupVersions>(groups: G[]): G[] {
  const firstApiService = (g: G) => g.versions.map((version) => `${version}.${g.group}`).sort(byName)[0] ?? '';
  return [...groups].sort((a, b) => groupPriority(b.group) - groupPriority(a.group) || byName(firstApiService(a), firstApiService(b)));
}

// aggregatedDiscoveryOrder orders groups as the APIGroupDiscoveryList of /apis lists them.
export function aggregatedDiscoveryOrder<G extends GroupVersions>(groups: G[]): G[] {
  return [...groups].sort((a, b) => groupPriority(b.group) - groupPriority(a.group) || byName(a.group, b.group));
}
