import { daemonTolerations, newDaemonPod, nodeNameAffinity, withDaemonTolerations } from './pod-template';
import { DaemonSet } from '@plinth/api';

function daemonSet(): DaemonSet {
  return {
    metadata: { name: 'agent', namespace: 'ns', uid: 'uid-1', annotations: { 'deprecated.daemonset.template.generation': '3' } },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i' }], tolerations: [{ key: 'dedicated', operator: 'Exists' }] } },
    },
  };
}

describe('newDaemonPod', () => {
  it('adds the revision labels, owner reference, tolerations and node affinity', () => {
    const ds = daemonSet();
    const pod = newDaemonPod(ds, 'node-1', 'abc');
    expect(pod.metadata).toEqual({
      generateName: 'agent-',
      namespace: 'ns',
      labels: { app: 'agent', 'controller-revision-hash': 'abc', 'pod-template-generation': '3' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-1', controller: true, blockOwnerDeletion: true }],
    });
    expect(pod.spec?.affinity).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } },
    });
    expect(pod.spec?.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists' }, ...daemonTolerations]);
    expect(pod.spec?.nodeName).toBeUndefined();
    // the DaemonSet is not changed
    expect(ds.spec!.template!.spec!.affinity).toBeUndefined();
    expect(ds.spec!.template!.spec!.tolerations).toHaveLength(1);
  });

  it('replaces the required node selector but keeps the rest of the affinity', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [],
      },
      podAntiAffinity: {},
    };
    expect(nodeNameAffinity(affinity, 'n')).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [],
      },
      podAntiAffinity: {},
    });
  });
});

describe('withDaemonTolerations', () => {
  it('replaces a toleration with the same key and effect and adds network-unavailable on the host network', () => {
    const tolerations = withDaemonTolerations({ hostNetwork: true, tolerations: [{ key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] });
    expect(tolerations).toHaveLength(7);
    expect(tolerations[0]).toEqual({ key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
    expect(tolerations[6]).toEqual({ key: 'node.platform.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  });
});
