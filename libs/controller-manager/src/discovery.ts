// Discovery as client-go's ServerPreferredResources: the resources of /api/v1 and of each group's
// preferred version under /apis, subresources left out. Groups whose discovery fails are reported
// beside the resources found, as ErrGroupDiscoveryFailed does.
import { ApiClient } from '@plinth/client';

export interface DiscoveredResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

export interface Discovery {
  resources: DiscoveredResource[];
  // failedGroups maps a group version ("apps/v1", "v1") to why its discovery failed.
  failedGroups: Map<string, string>;
}

interface ApiResourceList {
  groupVersion: string;
  resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}

interface ApiGroupList {
  groups: { name: string; preferredVersion: { groupVersion: string } }[];
}

// isAlias tells a *.k8s.io group listed beside its *.platform.io twin: Plinth's alias, another
// name for the same objects, which the controllers must not see twice.
function isAlias(group: string, listed: Set<string>): boolean {
  return group.endsWith('.k8s.io') && listed.has(`${group.slice(0, -'.k8s.io'.length)}.platform.io`);
}

export async function serverPreferredResources(client: ApiClient): Promise<Discovery> {
  const groupVersions = ['v1'];
  const groups = await client.get<ApiGroupList>('/apis');
  const listed = new Set(groups.groups.map((g) => g.name));
  for (const group of groups.groups) {
    if (!isAlias(group.name, listed)) groupVersions.push(group.preferredVersion.groupVersion);
  }
  const resources: DiscoveredResource[] = [];
  const failedGroups = new Map<string, string>();
  for (const groupVersion of groupVersions) {
    let list: ApiResourceList;
    try {
      list = await client.get<ApiResourceList>(groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`);
    } catch (err) {
      failedGroups.set(groupVersion, (err as Error).message);
      continue;
    }
    const [group, version] = groupVersion.includes('/') ? groupVersion.split('/') : ['', groupVersion];
    for (const r of list.resources ?? []) {
      if (!r.name.includes('/')) resources.push({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [] });
    }
  }
  return { resources, failedGroups };
}

// groupDiscoveryFailedMessage is ErrGroupDiscoveryFailed's message.
export function groupDiscoveryFailedMessage(failedGroups: Map<string, string>): string {
  const groups = [...failedGroups].map(([gv, err]) => `${gv}: ${err}`).sort();
  return `unable to retrieve the complete list of server APIs: ${groups.join(', ')}`;
}
