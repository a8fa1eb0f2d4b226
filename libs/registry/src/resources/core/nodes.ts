// Nodes (v1), after pkg/registry/core/node: taints, resource quantities and pod CIDRs are
// validated; podCIDRs and providerID may only be set once.
import { KubeObject, kindSchema, LabelNodeRole, LabelNodeRolePrefix, nodeSpecSchema, nodeStatusSchema, nodeSystemInfoFields, TaintNodeNotReady } from '@plinth/api';
import { field, FieldError, GoLiteral, goQuote, validation } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';
import { goTimeText } from '../shared/go-values';
import { validateTaintEffect } from './pod-validation-scheduling';
import { ipFamily, isObj, objects, parseQuantityField, sortedKeys, str, strings, validateResourceQuantityValue } from './validation-helpers';

function spec(node: KubeObject): Record<string, unknown> {
  return isObj(node.spec) ? node.spec : {};
}

function status(node: KubeObject): Record<string, unknown> {
  return isObj(node.status) ? node.status : {};
}

// validateNodeTaints is validateNodeTaints; Kubernetes addresses taints to metadata.taints.
function validateNodeTaints(taints: unknown): FieldError[] {
  const path = field.newPath('metadata', 'taints');
  const errs: FieldError[] = [];
  const unique = new Map<string, Set<string>>();
  objects(taints).forEach((taint, i) => {
    const idx = path.index(i);
    const key = str(taint.key);
    const value = str(taint.value);
    const effect = str(taint.effect);
    errs.push(...validation.validateLabelName(key, idx.child('key')));
    const msgs = validation.isValidLabelValue(value);
    if (msgs.length > 0) errs.push(field.invalid(idx.child('value'), value, msgs.join(';')));
    errs.push(...validateTaintEffect(effect, false, idx.child('effect')));
    const keys = unique.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      // TimeAdded is a *metav1.Time: fmt prints it with time.Time's GoString, <nil> when nil.
      const timeAdded = typeof taint.timeAdded === 'string' ? goTimeText(taint.timeAdded, 'time.Local') : '<nil>';
      const literal = new GoLiteral(`core.Taint{Key:${goQuote(key)}, Value:${goQuote(value)}, Effect:${goQuote(effect)}, TimeAdded:${timeAdded}}`);
      const dup = field.duplicate(idx, literal);
      errs.push(new field.FieldError(dup.type, dup.field, dup.badValue, 'taints must be unique by key and effect pair'));
      return;
    }
    keys.add(key);
    unique.set(effect, keys);
  });
  return errs;
}

function validateNodeResources(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const which of ['capacity', 'allocatable']) {
    const list = status(node)[which];
    for (const name of sortedKeys(list)) {
      const path = field.newPath('status', which, name);
      const q = parseQuantityField((list as Record<string, unknown>)[name], path, errs);
      if (q) errs.push(...validateResourceQuantityValue(name, q, path));
    }
  }
  return errs;
}

function isCIDR(value: string): boolean {
  const m = /^(.+)\/(\d{1,3})$/.exec(value);
  if (!m) return false;
  const family = ipFamily(m[1]);
  const bits = Number(m[2]);
  return (family === 4 && bits <= 32 && !m[1].includes(':')) || (family !== 0 && m[1].includes(':') && bits <= 128);
}

function validatePodCIDRs(node: KubeObject): FieldError[] {
  const cidrs = strings(spec(node).podCIDRs);
  if (cidrs.length === 0) return [];
  const path = field.newPath('spec', 'podCIDRs');
  const errs: FieldError[] = [];
  cidrs.forEach((cidr, i) => {
    if (!isCIDR(cidr)) errs.push(field.invalid(path.index(i), cidrs, 'must be valid CIDR'));
  });
  if (cidrs.length > 1) {
    const families = cidrs.map((c) => (c.includes(':') ? 6 : 4));
    if (!(families.includes(4) && families.includes(6)) || cidrs.length > 2) {
      errs.push(field.invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
    }
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(field.duplicate(path.index(i), c));
      seen.add(c);
    });
  }
  return errs;
}

// validateNodeUpdate is the update part of ValidateNodeUpdate, for spec and status updates.
function validateNodeUpdate(node: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(status(node).addresses).forEach((a, i) => {
    const key = `${str(a.type)}\u0000${str(a.address)}`;
    const literal = new GoLiteral(`core.NodeAddress{Type:${goQuote(str(a.type))}, Address:${goQuote(str(a.address))}}`);
    if (seen.has(key)) errs.push(field.duplicate(field.newPath('status', 'addresses').index(i), literal));
    seen.add(key);
  });
  const oldCIDRs = strings(spec(old).podCIDRs);
  const cidrs = strings(spec(node).podCIDRs);
  const cidrDetail = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== cidrs.length) errs.push(field.forbidden(field.newPath('spec', 'podCIDRs'), cidrDetail));
    else oldCIDRs.forEach((c, i) => c !== cidrs[i] && errs.push(field.forbidden(field.newPath('spec', 'podCIDRs'), cidrDetail)));
  }
  const oldProvider = str(spec(old).providerID);
  if (oldProvider.length > 0 && oldProvider !== str(spec(node).providerID)) {
    errs.push(field.forbidden(field.newPath('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  if (str(spec(node).externalID) !== str(spec(old).externalID)) errs.push(field.forbidden(field.newPath('spec', 'externalID'), 'may not be updated'));
  return errs;
}

// addNotReadyTaint is the TaintNodesByCondition admission plugin: a new Node starts tainted
// not-ready NoSchedule, until the node lifecycle controller (here, the node simulator) sees it
// Ready. Admission runs after the field manager, so the taint is no caller's field.
function addNotReadyTaint(node: KubeObject): void {
  const nodeSpec = isObj(node.spec) ? node.spec : (node.spec = {});
  const taints = objects(nodeSpec.taints);
  if (taints.some((t) => t.key === TaintNodeNotReady && t.effect === 'NoSchedule')) return;
  nodeSpec.taints = [...taints, { key: TaintNodeNotReady, effect: 'NoSchedule' }];
}

// fillStatusStructs: NodeStatus holds daemonEndpoints and nodeInfo by value, so Kubernetes
// stores and answers them, with zero values, even when nobody set them. Like admission, this
// happens after the field manager: no manager owns the zeros.
function fillStatusStructs(node: KubeObject): void {
  const st = isObj(node.status) ? node.status : (node.status = {});
  const endpoints = isObj(st.daemonEndpoints) ? st.daemonEndpoints : {};
  const kubelet = isObj(endpoints.kubeletEndpoint) ? endpoints.kubeletEndpoint : {};
  st.daemonEndpoints = { ...endpoints, kubeletEndpoint: { Port: 0, ...kubelet } };
  const info = isObj(st.nodeInfo) ? st.nodeInfo : {};
  st.nodeInfo = { ...Object.fromEntries(nodeSystemInfoFields.map((f) => [f, ''])), ...info };
}

// convertPodCIDRs is the round trip of v1.NodeSpec through the internal type, which has only
// podCIDRs: podCIDR wins when both are set and differ, and podCIDR shows podCIDRs[0].
function convertPodCIDRs(node: KubeObject): void {
  if (!isObj(node.spec)) return;
  const podCIDR = str(node.spec.podCIDR);
  const podCIDRs = strings(node.spec.podCIDRs);
  if (podCIDR !== '' && podCIDRs[0] !== podCIDR) node.spec.podCIDRs = [podCIDR];
  else if (podCIDRs.length > 0) node.spec.podCIDR = podCIDRs[0];
}

export const nodeStrategy: ResourceStrategy = {
  defaults(node) {
    convertPodCIDRs(node);
    // SetDefaults_NodeStatus: allocatable starts as capacity.
    const st = node.status;
    if (isObj(st) && isObj(st.capacity) && st.allocatable === undefined) st.allocatable = { ...st.capacity };
  },
  prepareForCreate(node) {
    addNotReadyTaint(node);
    fillStatusStructs(node);
  },
  prepareForStatusUpdate: (node) => fillStatusStructs(node),
  validate: (node) => [...validateNodeTaints(spec(node).taints), ...validateNodeResources(node), ...validatePodCIDRs(node)],
  validateUpdate: validateNodeUpdate,
  validateStatusUpdate: (node, old) => [...validateNodeTaints(spec(node).taints), ...validateNodeUpdate(node, old)],
  selectableFields: (node) => ({ 'metadata.name': node.metadata.name ?? '', 'spec.unschedulable': String(spec(node).unschedulable === true) }),
};

// nodeRoles is findNodeRoles: the node-role.platform.io/<role> labels and the platform.io/role label.
export function nodeRoles(node: KubeObject): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(LabelNodeRolePrefix) && k.length > LabelNodeRolePrefix.length) roles.add(k.slice(LabelNodeRolePrefix.length));
    else if (k === LabelNodeRole && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

function nodeAddress(node: KubeObject, type: string): string {
  const found = objects(status(node).addresses).find((a) => a.type === type);
  return found ? str(found.address) : '<none>';
}

export function nodeStatusCell(node: KubeObject): string {
  const ready = objects(status(node).conditions).find((c) => c.type === 'Ready');
  const cells: string[] = [];
  if (ready) cells.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (cells.length === 0) cells.push('Unknown');
  if (spec(node).unschedulable === true) cells.push('SchedulingDisabled');
  return cells.join(',');
}

const addressesDescription =
  'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node\'s address in its own status or consumers of the downward API (status.hostIP).';

export const nodeDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  resource: 'nodes',
  singular: 'node',
  kind: 'Node',
  listKind: 'NodeList',
  namespaced: false,
  shortNames: ['no'],
  verbs: objectVerbs,
  subresources: ['status'],
  tracksGeneration: false,
  hasStatus: true,
  statusOnCreate: true,
  schema: kindSchema(
    { spec: nodeSpecSchema, status: nodeStatusSchema },
    'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).',
    { ref: 'io.k8s.api.core.v1.Node' },
  ),
  strategy: nodeStrategy,
  zeroValue: { spec: {}, status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: Object.fromEntries(nodeSystemInfoFields.map((f) => [f, ''])) } },
  table: {
    columns: [
      nameColumn,
      column('Status', 'string', 'The status of the node'),
      column('Roles', 'string', 'The roles of the node'),
      ageColumn,
      column('Version', 'string', 'Kubelet Version reported by the node.'),
      column('Internal-IP', 'string', addressesDescription, 1),
      column('External-IP', 'string', addressesDescription, 1),
      column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
      column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
      column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
    ],
    row(node, now) {
      const info = isObj(status(node).nodeInfo) ? (status(node).nodeInfo as Record<string, unknown>) : {};
      const roles = nodeRoles(node).join(',');
      return [
        node.metadata.name ?? '',
        nodeStatusCell(node),
        roles || '<none>',
        age(node, now),
        str(info.kubeletVersion),
        nodeAddress(node, 'InternalIP'),
        nodeAddress(node, 'ExternalIP'),
        str(info.osImage) || '<unknown>',
        str(info.kernelVersion) || '<unknown>',
        str(info.containerRuntimeVersion) || '<unknown>',
      ];
    },
  },
  nameValidation: 'dns-subdomain',
};
