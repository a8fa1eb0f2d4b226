import { matchesNodeAffinity, nodeShouldRunDaemonPod, toleratesTaint } from './node-eligibility';
import { DaemonSet, Node, PodSpec, Taint } from '@plinth/api';

function daemonSet(spec: PodSpec = {}): DaemonSet {
  return { metadata: { name: 'ds' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec } } };
}

function node(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node {
  return { metadata: { name, labels }, spec: { taints } };
}

const run = { shouldRun: true, shouldContinueRunning: true };
const stay = { shouldRun: false, shouldContinueRunning: true };
const no = { shouldRun: false, shouldContinueRunning: false };

describe('nodeShouldRunDaemonPod', () => {
  it.each([
    ['a plain node', {}, node('n1'), run],
    ['nodeSelector matches', { nodeSelector: { disk: 'ssd' } }, node('n1', { disk: 'ssd' }), run],
    ['nodeSelector does not match', { nodeSelector: { disk: 'ssd' } }, node('n1', { disk: 'hdd' }), no],
    ['template nodeName names another node', { nodeName: 'n2' }, node('n1'), no],
    ['template nodeName names this node', { nodeName: 'n1' }, node('n1'), run],
    ['untolerated NoSchedule taint: existing pods stay', {}, node('n1', {}, [{ key: 'gpu', effect: 'NoSchedule' }]), stay],
    ['untolerated NoExecute taint', {}, node('n1', {}, [{ key: 'gpu', effect: 'NoExecute' }]), no],
    ['PreferNoSchedule taint is ignored', {}, node('n1', {}, [{ key: 'gpu', effect: 'PreferNoSchedule' }]), run],
    ['tolerated taint (Equal)', { tolerations: [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }] }, node('n1', {}, [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }]), run],
    ['toleration value differs', { tolerations: [{ key: 'gpu', value: 'no' }] }, node('n1', {}, [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }]), stay],
    ['tolerate everything', { tolerations: [{ operator: 'Exists' }] }, node('n1', {}, [{ key: 'x', effect: 'NoExecute' }]), run],
    ['default toleration: not-ready', {}, node('n1', {}, [{ key: 'node.platform.io/not-ready', effect: 'NoExecute' }]), run],
    ['default toleration: unreachable', {}, node('n1', {}, [{ key: 'node.platform.io/unreachable', effect: 'NoExecute' }]), run],
    ['default toleration: unschedulable', {}, node('n1', {}, [{ key: 'node.platform.io/unschedulable', effect: 'NoSchedule' }]), run],
    ['default toleration: disk-pressure', {}, node('n1', {}, [{ key: 'node.platform.io/disk-pressure', effect: 'NoSchedule' }]), run],
    ['default toleration: memory-pressure', {}, node('n1', {}, [{ key: 'node.platform.io/memory-pressure', effect: 'NoSchedule' }]), run],
    ['default toleration: pid-pressure', {}, node('n1', {}, [{ key: 'node.platform.io/pid-pressure', effect: 'NoSchedule' }]), run],
    ['network-unavailable without host network', {}, node('n1', {}, [{ key: 'node.platform.io/network-unavailable', effect: 'NoSchedule' }]), stay],
    ['network-unavailable with host network', { hostNetwork: true }, node('n1', {}, [{ key: 'node.platform.io/network-unavailable', effect: 'NoSchedule' }]), run],
    ['unschedulable node without taint', {}, { metadata: { name: 'n1' }, spec: { unschedulable: true } }, run],
  ] as [string, PodSpec, Node, object][])('%s', (_name, spec, n, want) => {
    expect(nodeShouldRunDaemonPod(n, daemonSet(spec))).toEqual(want);
  });
});

describe('matchesNodeAffinity', () => {
  const affinity = (terms: object[]): PodSpec => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms as never } } } });
  const n = node('n1', { zone: 'a', cores: '8' });
  it.each([
    ['In', [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }], true],
    ['NotIn', [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }], false],
    ['Exists', [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }], true],
    ['DoesNotExist', [{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }], true],
    ['Gt', [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['4'] }] }], true],
    ['Lt', [{ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['4'] }] }], false],
    ['matchFields on metadata.name', [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }], true],
    ['matchFields on another node', [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }], false],
    ['terms are ORed', [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }], true],
    ['an empty term matches nothing', [{}], false],
    ['no terms match nothing', [], false],
  ])('%s', (_name, terms, want) => {
    expect(matchesNodeAffinity(affinity(terms), n)).toBe(want);
  });
});

describe('toleratesTaint', () => {
  it('matches key, value and effect as the Go function does', () => {
    expect(toleratesTaint({ key: 'k', operator: 'Exists' }, { key: 'k', value: 'v', effect: 'NoSchedule' })).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Exists', effect: 'NoExecute' }, { key: 'k', effect: 'NoSchedule' })).toBe(false);
    expect(toleratesTaint({ key: 'k', value: 'v' }, { key: 'k', value: 'v', effect: 'NoSchedule' })).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Bogus' }, { key: 'k', effect: 'NoSchedule' })).toBe(false);
  });
});
