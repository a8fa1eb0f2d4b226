// Pod and pod template validation of pkg/apis/core/validation (v1.28): ValidatePodSpec,
// ValidatePodTemplateSpec, and the create, update and status-update checks of Pod. Other types
// that embed a pod template (Job, DaemonSet, ...) use validatePodTemplateSpec.
import { field, FieldError, FieldPath, GoLiteral, goQuote, validation } from '@plinth/machinery';
import { validateContainers, validateEphemeralContainers, validateInitContainers, validateResourceRequirements, validateSeccompProfileField, validateWindowsSecurityContextOptions } from './pod-validation-containers';
import {
  validateAffinity,
  validateDNSPolicy,
  validateHostAliases,
  validatePodDNSConfig,
  validateReadinessGates,
  validateSchedulingGates,
  validateTolerations,
  validateTopologySpreadConstraints,
} from './pod-validation-scheduling';
import { validateVolumes } from './pod-validation-volumes';
import { inclusiveRangeError, ipFamily, isObj, isSet, isValidIDRange, isValidIP, nameIsDNSSubdomain, num, Obj, objects, str, validateDNS1123Label, validateQualifiedName } from './validation-helpers';

export { validateTolerations } from './pod-validation-scheduling';
export { validateResourceRequirements } from './pod-validation-containers';

// KubeObjectLike is the part of a pod these checks read.
export interface KubeObjectLike {
  metadata?: { name?: string };
  spec?: unknown;
  status?: unknown;
}

export interface PodValidationOptions {
  // podName is the name of the pod being validated (ephemeral volume claim names depend on it);
  // absent for templates.
  podName?: string;
  // resourceIsPod is set when the spec is a Pod's own, not a template's.
  resourceIsPod?: boolean;
}

const maxInt32 = 2147483647;

function validateRestartPolicy(policy: unknown, path: FieldPath): FieldError[] {
  switch (policy) {
    case 'Always':
    case 'OnFailure':
    case 'Never':
      return [];
    case '':
    case undefined:
    case null:
      return [field.required(path, '')];
    default:
      return [field.notSupported(path, policy, ['Always', 'OnFailure', 'Never'])];
  }
}

// validatePodSpec is ValidatePodSpec.
export function validatePodSpec(spec: Record<string, unknown>, path: FieldPath, opts: PodValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const [volumes, volumeErrs] = validateVolumes(spec.volumes, opts.podName, path.child('volumes'));
  errs.push(...volumeErrs);
  errs.push(...validateContainers(spec.containers, volumes, path.child('containers')));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, volumes, path.child('initContainers')));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, volumes, path.child('ephemeralContainers')));
  errs.push(...validatePodHostNetworkDeps(spec, path, opts));
  errs.push(...validateRestartPolicy(spec.restartPolicy, path.child('restartPolicy')));
  errs.push(...validateDNSPolicy(spec.dnsPolicy, path.child('dnsPolicy')));
  errs.push(...validation.validateLabels(stringMap(spec.nodeSelector), path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, path));
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')));
  errs.push(...validatePodDNSConfig(spec.dnsConfig, spec.dnsPolicy, path.child('dnsConfig')));
  errs.push(...validateReadinessGates(spec.readinessGates, path.child('readinessGates')));
  errs.push(...validateSchedulingGates(spec.schedulingGates, path.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, path.child('topologySpreadConstraints')));
  for (const [key, what] of [
    ['serviceAccountName', 'serviceAccountName'],
    ['nodeName', 'nodeName'],
  ] as const) {
    const value = str(spec[key]);
    if (value.length > 0) errs.push(...nameIsDNSSubdomain(value, false).map((m) => field.invalid(path.child(what), value, m)));
  }
  if (isSet(spec.activeDeadlineSeconds)) {
    const value = num(spec.activeDeadlineSeconds);
    if (value < 1 || value > maxInt32) errs.push(field.invalid(path.child('activeDeadlineSeconds'), value, inclusiveRangeError(1, maxInt32)));
  }
  if (str(spec.hostname).length > 0) errs.push(...validateDNS1123Label(str(spec.hostname), path.child('hostname')));
  if (str(spec.subdomain).length > 0) errs.push(...validateDNS1123Label(str(spec.subdomain), path.child('subdomain')));
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  errs.push(...validateHostAliases(spec.hostAliases, path.child('hostAliases')));
  const priorityClassName = str(spec.priorityClassName);
  if (priorityClassName.length > 0) {
    errs.push(...nameIsDNSSubdomain(priorityClassName, false).map((m) => field.invalid(path.child('priorityClassName'), priorityClassName, m)));
  }
  if (isSet(spec.runtimeClassName)) {
    const name = str(spec.runtimeClassName);
    errs.push(...nameIsDNSSubdomain(name, false).map((m) => field.invalid(path.child('runtimeClassName'), name, m)));
  }
  if (isSet(spec.preemptionPolicy) && !['PreemptLowerPriority', 'Never'].includes(str(spec.preemptionPolicy))) {
    errs.push(field.notSupported(path.child('preemptionPolicy'), spec.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
  }
  if (isObj(spec.overhead)) errs.push(...validateResourceRequirements({ limits: spec.overhead }, path.child('overhead')));
  if (isObj(spec.os)) {
    const osErrs = validateOS(spec.os, path.child('os'));
    if (osErrs.length > 0) errs.push(...osErrs);
    else if (spec.os.name === 'linux') errs.push(...validateLinux(spec, path));
    else if (spec.os.name === 'windows') errs.push(...validateWindows(spec, path));
  }
  return errs;
}

function stringMap(v: unknown): Record<string, string> {
  return isObj(v) ? (v as Record<string, string>) : {};
}

function validatePodHostNetworkDeps(spec: Obj, path: FieldPath, opts: PodValidationOptions): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  objects(spec.containers).forEach((ctr, i) => {
    objects(ctr.ports).forEach((port, j) => {
      const hostPort = num(port.hostPort);
      if ((opts.resourceIsPod || hostPort !== 0) && hostPort !== num(port.containerPort)) {
        errs.push(field.invalid(path.child('containers').index(i).child('ports').index(j).child('hostPort'), hostPort, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

const sysctlPattern = /^([a-z0-9]([-_a-z0-9/]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9/]*[a-z0-9])?$/;
const sysctlMaxLength = 253;

function validatePodSecurityContext(spec: Obj, specPath: FieldPath): FieldError[] {
  const sc = spec.securityContext;
  if (!isObj(sc)) return [];
  const path = specPath.child('securityContext');
  const errs: FieldError[] = [];
  if (typeof sc.fsGroup === 'number') errs.push(...isValidIDRange(sc.fsGroup).map((m) => field.invalid(path.child('fsGroup'), sc.fsGroup, m)));
  for (const id of ['runAsUser', 'runAsGroup']) {
    if (typeof sc[id] === 'number') errs.push(...isValidIDRange(sc[id] as number).map((m) => field.invalid(path.child(id), sc[id], m)));
  }
  (Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : []).forEach((gid: unknown, i: number) => {
    errs.push(...isValidIDRange(num(gid)).map((m) => field.invalid(path.child('supplementalGroups').index(i), gid, m)));
  });
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(field.invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  const names = new Set<string>();
  objects(sc.sysctls).forEach((s, i) => {
    const p = path.child('sysctls').index(i).child('name');
    const name = str(s.name);
    if (name.length === 0) errs.push(field.required(p, ''));
    else if (name.length > sysctlMaxLength || !sysctlPattern.test(name)) {
      errs.push(field.invalid(p, name, `must have at most ${sysctlMaxLength} characters and match regex ${sysctlPattern.source}`));
    } else if (names.has(name)) errs.push(field.duplicate(p, name));
    names.add(name);
  });
  if (isSet(sc.fsGroupChangePolicy) && !['OnRootMismatch', 'Always'].includes(str(sc.fsGroupChangePolicy))) {
    errs.push(field.notSupported(path.child('fsGroupChangePolicy'), sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')));
  errs.push(...validateWindowsSecurityContextOptions(sc.windowsOptions, path.child('windowsOptions')));
  return errs;
}

function validateOS(os: Obj, path: FieldPath): FieldError[] {
  const name = str(os.name);
  if (name.length === 0) return [field.required(path.child('name'), 'cannot be empty')];
  return field.validateEnum(path, name, ['linux', 'windows']);
}

// visitContainers walks init, regular and ephemeral containers with their paths.
function visitContainers(spec: Obj, path: FieldPath, fn: (c: Obj, p: FieldPath) => void): void {
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    objects(spec[kind]).forEach((c, i) => fn(c, path.child(kind).index(i)));
  }
}

function validateLinux(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const detail = 'windows options cannot be set for a linux pod';
  if (isObj(spec.securityContext) && isSet(spec.securityContext.windowsOptions)) {
    errs.push(field.forbidden(path.child('securityContext', 'windowsOptions'), detail));
  }
  visitContainers(spec, path, (c, p) => {
    if (isObj(c.securityContext) && isSet(c.securityContext.windowsOptions)) errs.push(field.forbidden(p.child('securityContext', 'windowsOptions'), detail));
  });
  return errs;
}

function validateWindows(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const detail = 'cannot be set for a windows pod';
  const sc = isObj(spec.securityContext) ? spec.securityContext : undefined;
  if (sc && isSet(sc.seLinuxOptions)) errs.push(field.forbidden(path.child('securityContext', 'seLinuxOptions'), detail));
  if (isSet(spec.hostUsers)) errs.push(field.forbidden(path.child('hostUsers'), detail));
  if (spec.hostPID === true) errs.push(field.forbidden(path.child('hostPID'), detail));
  if (spec.hostIPC === true) errs.push(field.forbidden(path.child('hostIPC'), detail));
  if (sc) {
    for (const f of ['seccompProfile', 'fsGroup', 'fsGroupChangePolicy']) if (isSet(sc[f])) errs.push(field.forbidden(path.child('securityContext', f), detail));
    if (objects(sc.sysctls).length > 0) errs.push(field.forbidden(path.child('securityContext', 'sysctls'), detail));
  }
  if (isSet(spec.shareProcessNamespace)) errs.push(field.forbidden(path.child('shareProcessNamespace'), detail));
  if (sc) for (const f of ['runAsUser', 'runAsGroup', 'supplementalGroups']) if (isSet(sc[f])) errs.push(field.forbidden(path.child('securityContext', f), detail));
  visitContainers(spec, path, (c, p) => {
    const csc = c.securityContext;
    if (!isObj(csc)) return;
    for (const f of ['seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      if (isSet(csc[f])) errs.push(field.forbidden(p.child('securityContext', f), detail));
    }
  });
  return errs;
}

// validatePodTemplateSpec is ValidatePodTemplateSpec: the template's labels and annotations (at
// path.labels and path.annotations, as Kubernetes addresses them) and its pod spec.
export function validatePodTemplateSpec(template: Record<string, unknown>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const meta = isObj(template.metadata) ? template.metadata : {};
  errs.push(...validation.validateLabels(stringMap(meta.labels), path.child('labels')));
  errs.push(...validation.validateAnnotations(stringMap(meta.annotations), path.child('annotations')));
  const spec = isObj(template.spec) ? template.spec : {};
  errs.push(...validatePodSpec(spec, path.child('spec')));
  if (objects(spec.ephemeralContainers).length > 0) {
    errs.push(field.forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

function validateContainersOnlyForPod(containers: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(containers).forEach((c, i) => {
    const image = str(c.image);
    if (image.length !== image.trim().length) errs.push(field.invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}

// validatePodSpecOfPod is validatePodMetadataAndSpec without the object meta (the store checks it).
function validatePodSpecOfPod(pod: KubeObjectLike): FieldError[] {
  const specPath = field.newPath('spec');
  const spec = isObj(pod.spec) ? pod.spec : {};
  const errs = validatePodSpec(spec, specPath, { podName: pod.metadata?.name, resourceIsPod: true });
  errs.push(...validateContainersOnlyForPod(spec.containers, specPath.child('containers')));
  errs.push(...validateContainersOnlyForPod(spec.initContainers, specPath.child('initContainers')));
  return errs;
}

// validatePodCreate is ValidatePodCreate.
export function validatePodCreate(pod: KubeObjectLike): FieldError[] {
  const specPath = field.newPath('spec');
  const spec = isObj(pod.spec) ? pod.spec : {};
  const errs = validatePodSpecOfPod(pod);
  if (objects(spec.ephemeralContainers).length > 0) errs.push(field.forbidden(specPath.child('ephemeralContainers'), 'cannot be set on create'));
  if (str(spec.nodeName) !== '' && objects(spec.schedulingGates).length > 0) {
    errs.push(field.forbidden(specPath.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  errs.push(...validatePodIPs(pod));
  errs.push(...validateHostIPs(pod));
  return errs;
}

const podUpdateMessage =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
  '`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

// validatePodUpdate is the update part of ValidatePodUpdate (the store validates the new pod
// as on create first): the spec is immutable but for images, a shrinking
// activeDeadlineSeconds, added tolerations and removed scheduling gates.
export function validatePodUpdate(pod: KubeObjectLike, old: KubeObjectLike): FieldError[] {
  const specPath = field.newPath('spec');
  const spec = isObj(pod.spec) ? pod.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const errs: FieldError[] = [];
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  if (isSet(deadline)) {
    const value = num(deadline);
    if (value < 0 || value > maxInt32) return [...errs, field.invalid(specPath.child('activeDeadlineSeconds'), value, inclusiveRangeError(0, maxInt32))];
    if (isSet(oldDeadline) && num(oldDeadline) < value) {
      return [...errs, field.invalid(specPath.child('activeDeadlineSeconds'), value, 'must be less than or equal to previous value')];
    }
  } else if (isSet(oldDeadline)) {
    errs.push(field.invalid(specPath.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  for (const kind of ['containers', 'initContainers']) {
    const now = objects(spec[kind]);
    const before = objects(oldSpec[kind]);
    if (now.length !== before.length) {
      errs.push(field.forbidden(specPath.child(kind), 'pod updates may not add or remove containers'));
      return errs;
    }
    now.forEach((c, i) => {
      const image = str(c.image);
      if (image.length === 0) errs.push(field.required(specPath.child(kind).index(i).child('image'), ''));
      else if (image.trim().length !== image.length) errs.push(field.invalid(specPath.child(kind).index(i).child('image'), image, 'must not have leading or trailing whitespace'));
    });
  }
  errs.push(...validateOnlyAddedTolerations(spec.tolerations, oldSpec.tolerations, specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedSchedulingGates(spec.schedulingGates, oldSpec.schedulingGates, specPath.child('schedulingGates')));

  // The munged spec takes every field that may change from the old spec; any remaining
  // difference is a forbidden change.
  const munged = JSON.parse(JSON.stringify(spec)) as Obj;
  for (const kind of ['containers', 'initContainers']) {
    const before = objects(oldSpec[kind]);
    objects(munged[kind]).forEach((c, i) => (c.image = before[i]?.image));
  }
  copyField(munged, oldSpec, 'activeDeadlineSeconds');
  copyField(munged, oldSpec, 'tolerations');
  copyField(munged, oldSpec, 'schedulingGates');
  const oldGrace = oldSpec.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && spec.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (objects(oldSpec.schedulingGates).length > 0) {
    // A gated pod may still gain node selectors and affinity terms.
    copyField(munged, oldSpec, 'nodeSelector');
    copyField(munged, oldSpec, 'affinity');
  }
  const diff = specDiff(oldSpec, munged);
  if (diff.length > 0) errs.push(field.forbidden(specPath, `${podUpdateMessage}\n${diff}`));
  return errs;
}

function copyField(to: Obj, from: Obj, key: string): void {
  if (from[key] === undefined) delete to[key];
  else to[key] = from[key];
}

// specDiff lists the top-level spec fields that differ, in the -old/+new shape of cmp.Diff.
function specDiff(before: Obj, after: Obj): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lines: string[] = [];
  for (const key of keys) {
    const a = JSON.stringify(before[key]);
    const b = JSON.stringify(after[key]);
    if (a === b) continue;
    const name = key.charAt(0).toUpperCase() + key.slice(1);
    if (a !== undefined) lines.push(`- \t${name}: ${a},`);
    if (b !== undefined) lines.push(`+ \t${name}: ${b},`);
  }
  return lines.length === 0 ? '' : `  core.PodSpec{\n${lines.join('\n')}\n  }\n`;
}

function validateOnlyAddedTolerations(now: unknown, before: unknown, path: FieldPath): FieldError[] {
  const current = objects(now);
  for (const old of objects(before)) {
    const found = current.some((t) => sameToleration(old, t));
    if (!found) return [field.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

function sameToleration(a: Obj, b: Obj): boolean {
  return ['key', 'operator', 'value', 'effect'].every((k) => str(a[k]) === str(b[k]));
}

function validateOnlyDeletedSchedulingGates(now: unknown, before: unknown, path: FieldPath): FieldError[] {
  const current = objects(now);
  if (current.length === 0) return [];
  const old = new Set(objects(before).map((g) => str(g.name)));
  const errs: FieldError[] = [];
  const added = new Map<string, number>();
  current.forEach((g, i) => added.set(str(g.name), i));
  for (const name of old) added.delete(name);
  for (const [name, i] of added) errs.push(field.forbidden(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
  return errs;
}

// validatePodStatusUpdate is ValidatePodStatusUpdate without the object meta.
export function validatePodStatusUpdate(pod: KubeObjectLike, old: KubeObjectLike): FieldError[] {
  const errs: FieldError[] = [];
  const status = isObj(pod.status) ? pod.status : {};
  const oldStatus = isObj(old.status) ? old.status : {};
  const spec = isObj(pod.spec) ? pod.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);
  // Kubernetes addresses these to metadata.conditions.
  objects(status.conditions).forEach((c, i) => {
    const type = str(c.type);
    if (!systemConditions.has(type)) errs.push(...validateQualifiedName(type, field.newPath('metadata', 'conditions').index(i).child('Type')));
  });
  const statusPath = field.newPath('status');
  if (str(spec.nodeName) !== str(oldSpec.nodeName)) errs.push(field.forbidden(statusPath.child('nodeName'), 'may not be changed directly'));
  const nominated = str(status.nominatedNodeName);
  if (nominated !== str(oldStatus.nominatedNodeName) && nominated.length > 0) {
    errs.push(...nameIsDNSSubdomain(nominated, false).map((m) => field.invalid(statusPath.child('nominatedNodeName'), nominated, m)));
  }
  const restartPolicy = str(oldSpec.restartPolicy);
  errs.push(...validateContainerStateTransition(status.containerStatuses, oldStatus.containerStatuses, statusPath.child('containerStatuses'), restartPolicy));
  errs.push(...validateContainerStateTransition(status.initContainerStatuses, oldStatus.initContainerStatuses, statusPath.child('initContainerStatuses'), restartPolicy));
  errs.push(...validateContainerStateTransition(status.ephemeralContainerStatuses, oldStatus.ephemeralContainerStatuses, statusPath.child('ephemeralContainerStatuses'), 'Never'));
  errs.push(...validatePodIPs(pod));
  errs.push(...validateHostIPs(pod));
  return errs;
}

function validateContainerStateTransition(now: unknown, before: unknown, path: FieldPath, restartPolicy: string): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  const old = objects(before);
  objects(now).forEach((status, i) => {
    const prev = old.find((o) => str(o.name) === str(status.name));
    if (!prev) return;
    const prevState = isObj(prev.state) ? prev.state : {};
    const state = isObj(status.state) ? status.state : {};
    const prevTerminated = isObj(prevState.terminated) ? prevState.terminated : undefined;
    if (!prevTerminated || isObj(state.terminated)) return;
    if (restartPolicy === 'OnFailure' && num(prevTerminated.exitCode) !== 0) return;
    errs.push(field.forbidden(path.index(i).child('state'), 'may not be transitioned to non-terminated state'));
  });
  return errs;
}

function ipLiteral(kind: string, ip: string): string {
  return `core.${kind}{IP:${goQuote(ip)}}`;
}

function validateIPList(list: unknown, path: FieldPath, kind: 'PodIP' | 'HostIP'): FieldError[] {
  const errs: FieldError[] = [];
  const entries = objects(list);
  entries.forEach((entry, i) => errs.push(...isValidIP(str(entry.ip)).map((m) => field.invalid(path.index(i), str(entry.ip), m))));
  if (entries.length > 1) {
    const ips = entries.map((e) => str(e.ip));
    const families = ips.map(ipFamily);
    const dualStack = families.includes(4) && families.includes(6);
    if (!dualStack || ips.length > 2) {
      errs.push(field.invalid(path, new GoLiteral(`[]core.${kind}{${ips.map((ip) => ipLiteral(kind, ip)).join(', ')}}`), 'may specify no more than one IP for each IP family'));
    }
    const seen = new Set<string>();
    entries.forEach((e, i) => {
      if (seen.has(str(e.ip))) errs.push(field.duplicate(path.index(i), new GoLiteral(ipLiteral(kind, str(e.ip)))));
      seen.add(str(e.ip));
    });
  }
  return errs;
}

function validatePodIPs(pod: KubeObjectLike): FieldError[] {
  const status = isObj(pod.status) ? pod.status : {};
  return validateIPList(status.podIPs, field.newPath('status', 'podIPs'), 'PodIP');
}

function validateHostIPs(pod: KubeObjectLike): FieldError[] {
  const status = isObj(pod.status) ? pod.status : {};
  const errs: FieldError[] = [];
  const hostIPs = objects(status.hostIPs);
  if (hostIPs.length === 0) return errs;
  const hostIP = str(status.hostIP);
  if (hostIP !== str(hostIPs[0].ip)) {
    errs.push(field.invalid(field.newPath('status', 'hostIPs').index(0).child('ip'), str(hostIPs[0].ip), 'must be equal to `hostIP`'));
  }
  errs.push(...validateIPList(status.hostIPs, field.newPath('status', 'hostIPs'), 'HostIP'));
  return errs;
}

