// Container validation of pkg/apis/core/validation (v1.28): validateContainers,
// validateInitContainers, validateEphemeralContainers and what they share
// (validateContainerCommon: name, image, ports, env, mounts, resources, probes, security).
import { field, FieldError, FieldPath, GoLiteral, validation } from '@plinth/machinery';
import { compareQuantities, formatQuantity, Quantity } from './quantity';
import {
  isConfigMapKey,
  isEnvVarName,
  isHTTPHeaderName,
  isHugePageResourceName,
  isObj,
  isOvercommitAllowed,
  isSet,
  isValidIDRange,
  isValidPortName,
  isValidPortNum,
  nameIsDNSSubdomain,
  num,
  Obj,
  objects,
  parseQuantityField,
  sortedKeys,
  str,
  strings,
  validateContainerResourceName,
  validateDNS1123Label,
  validateLocalDescendingPath,
  validateNonnegativeField,
  validatePathNoBacksteps,
  validatePortNumOrName,
  validateResourceQuantityValue,
} from './validation-helpers';

// VolumeSources maps each valid volume name to its source.
export type VolumeSources = Map<string, Obj>;

const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const supportedHTTPSchemes = ['HTTP', 'HTTPS'];
export const validEnvDownwardAPIFieldPathExpressions = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
];
const validContainerResourceFieldPathExpressions = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const validContainerResourceFieldPathPrefixes = ['limits.hugepages-', 'requests.hugepages-'];

export function validateContainers(containers: unknown, volumes: VolumeSources, path: FieldPath): FieldError[] {
  const list = objects(containers);
  if (list.length === 0) return [field.required(path, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((ctr, i) => {
    const idx = path.index(i);
    errs.push(...validateContainerCommon(ctr, volumes, idx));
    const name = str(ctr.name);
    if (names.has(name)) errs.push(field.duplicate(idx.child('name'), name));
    else names.add(name);
    if (isObj(ctr.lifecycle)) errs.push(...validateLifecycle(ctr.lifecycle, idx.child('lifecycle')));
    errs.push(...validateLivenessProbe(ctr.livenessProbe, idx.child('livenessProbe')));
    errs.push(...validateReadinessProbe(ctr.readinessProbe, idx.child('readinessProbe')));
    errs.push(...validateStartupProbe(ctr.startupProbe, idx.child('startupProbe')));
    if (isSet(ctr.restartPolicy)) errs.push(field.forbidden(idx.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(list, path));
  return errs;
}

export function validateInitContainers(containers: unknown, regular: unknown, volumes: VolumeSources, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(objects(regular).map((c) => str(c.name)));
  objects(containers).forEach((ctr, i) => {
    const idx = path.index(i);
    errs.push(...validateContainerCommon(ctr, volumes, idx));
    let restartAlways = false;
    if (isSet(ctr.restartPolicy)) {
      if (ctr.restartPolicy !== 'Always') errs.push(field.notSupported(idx.child('restartPolicy'), ctr.restartPolicy, ['Always']));
      restartAlways = ctr.restartPolicy === 'Always';
    }
    const name = str(ctr.name);
    if (names.has(name)) errs.push(field.duplicate(idx.child('name'), name));
    else if (name.length > 0) names.add(name);
    // Init containers run one by one, so each is checked for host port conflicts on its own.
    errs.push(...checkHostPortConflicts([ctr], path));
    if (restartAlways) {
      if (isObj(ctr.lifecycle)) errs.push(...validateLifecycle(ctr.lifecycle, idx.child('lifecycle')));
      errs.push(...validateLivenessProbe(ctr.livenessProbe, idx.child('livenessProbe')));
      errs.push(...validateReadinessProbe(ctr.readinessProbe, idx.child('readinessProbe')));
      errs.push(...validateStartupProbe(ctr.startupProbe, idx.child('startupProbe')));
    } else {
      const detail = 'may not be set for init containers without restartPolicy=Always';
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (isSet(ctr[f])) errs.push(field.forbidden(idx.child(f), detail));
      }
    }
  });
  return errs;
}

const ephemeralForbidden = ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

export function validateEphemeralContainers(
  containers: unknown,
  regular: unknown,
  init: unknown,
  volumes: VolumeSources,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const otherNames = new Set([...objects(regular), ...objects(init)].map((c) => str(c.name)));
  const names = new Set<string>();
  objects(containers).forEach((ctr, i) => {
    const idx = path.index(i);
    errs.push(...validateContainerCommon(ctr, volumes, idx));
    const name = str(ctr.name);
    if (names.has(name) || otherNames.has(name)) errs.push(field.duplicate(idx.child('name'), name));
    else names.add(name);
    const target = str(ctr.targetContainerName);
    if (target !== '' && !otherNames.has(target)) errs.push(field.notFound(idx.child('targetContainerName'), target));
    for (const f of ephemeralForbidden) {
      if (isSet(ctr[f]) && !(Array.isArray(ctr[f]) && (ctr[f] as unknown[]).length === 0)) {
        errs.push(field.forbidden(idx.child(f), 'cannot be set for an Ephemeral Container'));
      }
    }
    const resources = ctr.resources;
    if (isObj(resources) && (sortedKeys(resources.limits).length > 0 || sortedKeys(resources.requests).length > 0)) {
      errs.push(field.forbidden(idx.child('resources'), 'cannot be set for an Ephemeral Container'));
    }
    if (isSet(ctr.restartPolicy)) errs.push(field.forbidden(idx.child('restartPolicy'), 'cannot be set for an Ephemeral Container'));
    objects(ctr.volumeMounts).forEach((m, j) => {
      if (isSet(m.subPath) && m.subPath !== '') errs.push(field.forbidden(idx.child('volumeMounts').index(j).child('subPath'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

// validateContainerCommon is what every container type shares.
export function validateContainerCommon(ctr: Obj, volumes: VolumeSources, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ctr.name);
  if (name.length === 0) errs.push(field.required(path.child('name'), ''));
  else errs.push(...validateDNS1123Label(name, path.child('name')));
  if (str(ctr.image).length === 0) errs.push(field.required(path.child('image'), ''));
  switch (ctr.terminationMessagePolicy) {
    case 'File':
    case 'FallbackToLogsOnError':
      break;
    case '':
    case undefined:
    case null:
      errs.push(field.required(path.child('terminationMessagePolicy'), "must be 'File' or 'FallbackToLogsOnError'"));
      break;
    default:
      errs.push(field.notSupported(path.child('terminationMessagePolicy'), ctr.terminationMessagePolicy, ['File', 'FallbackToLogsOnError']));
  }
  const mounts = objects(ctr.volumeMounts);
  const devices = objects(ctr.volumeDevices);
  errs.push(...validateContainerPorts(ctr.ports, path.child('ports')));
  errs.push(...validateEnv(ctr.env, path.child('env')));
  errs.push(...validateEnvFrom(ctr.envFrom, path.child('envFrom')));
  errs.push(...validateVolumeMounts(mounts, devices, volumes, ctr, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(devices, mounts, volumes, path.child('volumeDevices')));
  errs.push(...validatePullPolicy(ctr.imagePullPolicy, path.child('imagePullPolicy')));
  errs.push(...validateResourceRequirements(ctr.resources, path.child('resources')));
  errs.push(...validateSecurityContext(ctr.securityContext, path.child('securityContext')));
  return errs;
}

export function validateContainerPorts(ports: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(ports).forEach((port, i) => {
    const idx = path.index(i);
    const name = str(port.name);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => field.invalid(idx.child('name'), name, m)));
      else if (names.has(name)) errs.push(field.duplicate(idx.child('name'), name));
      else names.add(name);
    }
    const containerPort = num(port.containerPort);
    if (containerPort === 0) errs.push(field.required(idx.child('containerPort'), ''));
    else errs.push(...isValidPortNum(containerPort).map((m) => field.invalid(idx.child('containerPort'), containerPort, m)));
    const hostPort = num(port.hostPort);
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((m) => field.invalid(idx.child('hostPort'), hostPort, m)));
    const protocol = str(port.protocol);
    if (protocol.length === 0) errs.push(field.required(idx.child('protocol'), ''));
    else if (!supportedPortProtocols.includes(protocol)) errs.push(field.notSupported(idx.child('protocol'), protocol, supportedPortProtocols));
  });
  return errs;
}

// checkHostPortConflicts is AccumulateUniqueHostPorts over one list of containers.
function checkHostPortConflicts(containers: Obj[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((ctr, ci) => {
    objects(ctr.ports).forEach((port, pi) => {
      const hostPort = num(port.hostPort);
      if (hostPort === 0) return;
      const key = `${str(port.hostIP)}/${str(port.protocol)}/${hostPort}`;
      if (seen.has(key)) errs.push(field.duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

export function validateEnv(vars: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(vars).forEach((ev, i) => {
    const idx = path.index(i);
    const name = str(ev.name);
    if (name.length === 0) errs.push(field.required(idx.child('name'), ''));
    else errs.push(...isEnvVarName(name).map((m) => field.invalid(idx.child('name'), name, m)));
    errs.push(...validateEnvVarValueFrom(ev, idx.child('valueFrom')));
  });
  return errs;
}

function validateEnvVarValueFrom(ev: Obj, path: FieldPath): FieldError[] {
  const from = ev.valueFrom;
  if (!isObj(from)) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (isObj(from.fieldRef)) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, validEnvDownwardAPIFieldPathExpressions, path.child('fieldRef')));
  }
  if (isObj(from.resourceFieldRef)) {
    sources++;
    errs.push(...validateContainerResourceFieldSelector(from.resourceFieldRef, path.child('resourceFieldRef'), false));
  }
  if (isObj(from.configMapKeyRef)) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, path.child('configMapKeyRef')));
  }
  if (isObj(from.secretKeyRef)) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef, path.child('secretKeyRef')));
  }
  if (sources === 0) {
    errs.push(field.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  } else if (str(ev.value).length !== 0) {
    errs.push(field.invalid(path, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(field.invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

// downwardAPIFieldLabels are the pod fields podshelper.ConvertDownwardAPIFieldLabel accepts.
const downwardAPIFieldLabels = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

// validateObjectFieldSelector checks a downward API field reference against the given set.
export function validateObjectFieldSelector(fs: Obj, expressions: string[], path: FieldPath): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (apiVersion.length === 0) return [field.required(path.child('apiVersion'), '')];
  if (fieldPath.length === 0) return [field.required(path.child('fieldPath'), '')];
  if (apiVersion !== 'v1') return [field.invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: unsupported pod version: ${apiVersion}`)];
  const subscripted = /^(metadata\.annotations|metadata\.labels)\['(.*)'\]$/.exec(fieldPath);
  if (!subscripted && !downwardAPIFieldLabels.has(fieldPath)) {
    return [field.invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`)];
  }
  const anySubscript = /^([^[]+)\[(.*)\]$/.exec(fieldPath);
  if (anySubscript) {
    const [, base, rawKey] = anySubscript;
    const key = rawKey.replace(/^'(.*)'$/, '$1');
    if (base === 'metadata.annotations') return validationMsgs(key.toLowerCase(), path);
    if (base === 'metadata.labels') return validationMsgs(key, path);
    return [field.invalid(path, base, 'does not support subscript')];
  }
  if (!expressions.includes(fieldPath)) return [field.notSupported(path.child('fieldPath'), fieldPath, [...expressions].sort())];
  return [];
}

function validationMsgs(key: string, path: FieldPath): FieldError[] {
  return isQualified(key).map((m) => field.invalid(path, key, m));
}

function isQualified(key: string): string[] {
  return validation.isQualifiedName(key);
}

export function validateContainerResourceFieldSelector(fs: Obj, path: FieldPath, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && str(fs.containerName).length === 0) errs.push(field.required(path.child('containerName'), ''));
  else if (resource.length === 0) errs.push(field.required(path.child('resource'), ''));
  else if (!validContainerResourceFieldPathExpressions.includes(resource) && !validContainerResourceFieldPathPrefixes.some((p) => resource.startsWith(p))) {
    errs.push(field.notSupported(path.child('resource'), resource, validContainerResourceFieldPathExpressions));
  }
  errs.push(...validateContainerResourceDivisor(resource, fs.divisor, path));
  return errs;
}

const cpuDivisors = ['1m', '1'];
const memoryDivisors = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];

function validateContainerResourceDivisor(resource: string, divisor: unknown, path: FieldPath): FieldError[] {
  if (!isSet(divisor)) return [];
  const errs: FieldError[] = [];
  const q = parseQuantityField(divisor, path.child('divisor'), errs);
  if (!q || q.nanos === 0n) return errs;
  const text = formatQuantity(q);
  const matches = (list: string[]): boolean => list.some((d) => d === text || d === String(divisor));
  const lit = new GoLiteral(text);
  if (resource === 'limits.cpu' || resource === 'requests.cpu') {
    if (!matches(cpuDivisors)) errs.push(field.invalid(path.child('divisor'), lit, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if (['limits.memory', 'requests.memory', 'limits.ephemeral-storage', 'requests.ephemeral-storage'].includes(resource)) {
    const which = resource.endsWith('memory') ? 'memory' : 'local ephemeral storage';
    if (!matches(memoryDivisors)) {
      errs.push(field.invalid(path.child('divisor'), lit, `only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the ${which} resource`));
    }
  } else if (resource.includes('hugepages-')) {
    if (!matches(memoryDivisors)) {
      errs.push(field.invalid(path.child('divisor'), lit, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"));
    }
  }
  return errs;
}

// validateKeySelector checks a configMapKeyRef or secretKeyRef.
function validateKeySelector(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s.name);
  errs.push(...nameIsDNSSubdomain(name, false).map((m) => field.invalid(path.child('name'), name, m)));
  const key = str(s.key);
  if (key.length === 0) errs.push(field.required(path.child('key'), ''));
  else errs.push(...isConfigMapKey(key).map((m) => field.invalid(path.child('key'), key, m)));
  return errs;
}

export function validateEnvFrom(vars: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(vars).forEach((ev, i) => {
    const idx = path.index(i);
    const prefix = str(ev.prefix);
    if (prefix.length > 0) errs.push(...isEnvVarName(prefix).map((m) => field.invalid(idx.child('prefix'), prefix, m)));
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = ev[key];
      if (!isObj(ref)) continue;
      sources++;
      const name = str(ref.name);
      if (name.length === 0) errs.push(field.required(idx.child(key, 'name'), ''));
      else errs.push(...nameIsDNSSubdomain(name, true).map((m) => field.invalid(idx.child(key, 'name'), name, m)));
    }
    if (sources === 0) errs.push(field.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(field.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateVolumeMounts(mounts: Obj[], devices: Obj[], volumes: VolumeSources, ctr: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  const deviceNames = new Set(devices.map((d) => str(d.name)));
  const devicePaths = new Set(devices.map((d) => str(d.devicePath)));
  mounts.forEach((mnt, i) => {
    const idx = path.index(i);
    const name = str(mnt.name);
    const mountPath = str(mnt.mountPath);
    if (name.length === 0) errs.push(field.required(idx.child('name'), ''));
    if (!volumes.has(name)) errs.push(field.notFound(idx.child('name'), name));
    if (mountPath.length === 0) errs.push(field.required(idx.child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(field.invalid(idx.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (deviceNames.has(name)) errs.push(field.invalid(idx.child('name'), name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(field.invalid(idx.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(mnt.subPath);
    const subPathExpr = str(mnt.subPathExpr);
    // Kubernetes addresses these two to the list, not to the entry.
    if (subPath.length > 0) errs.push(...validateLocalDescendingPath(subPath, path.child('subPath')));
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) errs.push(field.invalid(idx.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, path.child('subPathExpr')));
    }
    if (isSet(mnt.mountPropagation)) errs.push(...validateMountPropagation(str(mnt.mountPropagation), ctr, path.child('mountPropagation')));
  });
  return errs;
}

function validateMountPropagation(mode: string, ctr: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const supported = ['Bidirectional', 'HostToContainer', 'None'];
  errs.push(...field.validateEnum(path, mode, supported));
  const sc = ctr.securityContext;
  const privileged = isObj(sc) && sc.privileged === true;
  if (mode === 'Bidirectional' && !privileged) {
    errs.push(field.forbidden(path, 'Bidirectional mount propagation is available only to privileged containers'));
  }
  return errs;
}

function validateVolumeDevices(devices: Obj[], mounts: Obj[], volumes: VolumeSources, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  const mountNames = new Set(mounts.map((m) => str(m.name)));
  const mountPaths = new Set(mounts.map((m) => str(m.mountPath)));
  devices.forEach((dev, i) => {
    const idx = path.index(i);
    const name = str(dev.name);
    const devicePath = str(dev.devicePath);
    const source = volumes.get(name);
    const isPVC = !!source && (isObj(source.persistentVolumeClaim) || isObj(source.ephemeral));
    if (name.length === 0) errs.push(field.required(idx.child('name'), ''));
    if (deviceNames.has(name)) errs.push(field.invalid(idx.child('name'), name, 'must be unique'));
    if (source && !isPVC) {
      errs.push(field.invalid(idx.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!source) errs.push(field.notFound(idx.child('name'), name));
    if (devicePath.length === 0) errs.push(field.required(idx.child('devicePath'), ''));
    if (devicePaths.has(devicePath)) errs.push(field.invalid(idx.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath.length > 0 && validatePathNoBacksteps(devicePath, idx).length > 0) {
      errs.push(field.invalid(idx.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    } else devicePaths.add(devicePath);
    if (mountNames.has(name)) errs.push(field.invalid(idx.child('name'), name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath)) errs.push(field.invalid(idx.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name.length > 0) deviceNames.add(name);
  });
  return errs;
}

function validatePullPolicy(policy: unknown, path: FieldPath): FieldError[] {
  switch (policy) {
    case 'Always':
    case 'IfNotPresent':
    case 'Never':
      return [];
    case '':
    case undefined:
    case null:
      return [field.required(path, '')];
    default:
      return [field.notSupported(path, policy, ['Always', 'IfNotPresent', 'Never'])];
  }
}

// validateResourceRequirements is ValidateResourceRequirements: names, quantities,
// requests <= limits, limits for resources that cannot be overcommitted.
export function validateResourceRequirements(resources: unknown, path: FieldPath): FieldError[] {
  if (!isObj(resources)) return [];
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = new Map<string, Quantity>();
  let limCPUOrMemory = false;
  let reqCPUOrMemory = false;
  let hugePages = false;
  for (const name of sortedKeys(resources.limits)) {
    const p = limPath.key(name);
    errs.push(...validateContainerResourceName(name, p));
    const q = parseQuantityField((resources.limits as Obj)[name], p, errs);
    if (!q) continue;
    limits.set(name, q);
    errs.push(...validateResourceQuantityValue(name, q, p));
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') limCPUOrMemory = true;
  }
  for (const name of sortedKeys(resources.requests)) {
    const p = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, p));
    const q = parseQuantityField((resources.requests as Obj)[name], p, errs);
    if (!q) continue;
    errs.push(...validateResourceQuantityValue(name, q, p));
    const limit = limits.get(name);
    if (limit) {
      if (compareQuantities(q, limit) !== 0 && !isOvercommitAllowed(name)) {
        errs.push(field.invalid(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
      } else if (compareQuantities(q, limit) > 0) {
        errs.push(field.invalid(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(field.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') reqCPUOrMemory = true;
  }
  if (!limCPUOrMemory && !reqCPUOrMemory && hugePages) errs.push(field.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

// Probes and lifecycle handlers.
function validateProbe(probe: Obj, path: FieldPath): FieldError[] {
  const errs = validateHandler(probe, path, true);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegativeField(num(probe[f]), path.child(f)));
  }
  const tgps = probe.terminationGracePeriodSeconds;
  if (typeof tgps === 'number' && tgps <= 0) errs.push(field.invalid(path.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  return errs;
}

function validateLivenessProbe(probe: unknown, path: FieldPath): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, path);
  if (num(probe.successThreshold) !== 1) errs.push(field.invalid(path.child('successThreshold'), num(probe.successThreshold), 'must be 1'));
  return errs;
}

function validateReadinessProbe(probe: unknown, path: FieldPath): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, path);
  if (isSet(probe.terminationGracePeriodSeconds)) {
    errs.push(field.invalid(path.child('terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

function validateStartupProbe(probe: unknown, path: FieldPath): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateProbe(probe, path);
  if (num(probe.successThreshold) !== 1) errs.push(field.invalid(path.child('successThreshold'), num(probe.successThreshold), 'must be 1'));
  return errs;
}

function validateLifecycle(lifecycle: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop']) {
    if (isObj(lifecycle[hook])) errs.push(...validateHandler(lifecycle[hook] as Obj, path.child(hook), false));
  }
  return errs;
}

function validateHandler(handler: Obj, path: FieldPath, allowGRPC: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let handlers = 0;
  const kinds: [string, (h: Obj, p: FieldPath) => FieldError[]][] = [
    ['exec', (h, p) => (strings(h.command).length === 0 ? [field.required(p.child('command'), '')] : [])],
    ['httpGet', validateHTTPGetAction],
    ['tcpSocket', (h, p) => validatePortNumOrName(h.port, p.child('port'))],
  ];
  if (allowGRPC) kinds.push(['grpc', (h, p) => isValidPortNum(num(h.port)).map((m) => field.invalid(p.child('port'), num(h.port), m))]);
  for (const [kind, check] of kinds) {
    if (!isObj(handler[kind])) continue;
    if (handlers > 0) {
      errs.push(field.forbidden(path.child(kind), 'may not specify more than 1 handler type'));
    } else {
      handlers++;
      errs.push(...check(handler[kind] as Obj, path.child(kind)));
    }
  }
  if (handlers === 0) errs.push(field.required(path, 'must specify a handler type'));
  return errs;
}

function validateHTTPGetAction(http: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(http.path).length === 0) errs.push(field.required(path.child('path'), ''));
  errs.push(...validatePortNumOrName(http.port, path.child('port')));
  errs.push(...field.validateEnum(path.child('scheme'), str(http.scheme), supportedHTTPSchemes));
  for (const header of objects(http.httpHeaders)) {
    errs.push(...isHTTPHeaderName(str(header.name)).map((m) => field.invalid(path.child('httpHeaders'), str(header.name), m)));
  }
  return errs;
}

// Security contexts.
export function validateSecurityContext(sc: unknown, path: FieldPath): FieldError[] {
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  for (const id of ['runAsUser', 'runAsGroup']) {
    if (typeof sc[id] === 'number') errs.push(...isValidIDRange(sc[id] as number).map((m) => field.invalid(path.child(id), sc[id], m)));
  }
  if (isSet(sc.procMount) && sc.procMount !== 'Default' && sc.procMount !== 'Unmasked') {
    errs.push(field.notSupported(path.child('procMount'), sc.procMount, ['Default', 'Unmasked']));
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) {
      errs.push(field.invalid(path, securityContextLiteral(sc), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    }
    const caps = sc.capabilities;
    if (isObj(caps)) {
      for (const cap of strings(caps.add)) {
        if (cap === 'CAP_SYS_ADMIN') {
          errs.push(field.invalid(path, securityContextLiteral(sc), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
        }
      }
    }
  }
  errs.push(...validateWindowsSecurityContextOptions(sc.windowsOptions, path.child('windowsOptions')));
  return errs;
}

function securityContextLiteral(sc: Obj): GoLiteral {
  return new GoLiteral(`&core.SecurityContext${JSON.stringify(sc)}`);
}

export function validateSeccompProfileField(sp: unknown, path: FieldPath): FieldError[] {
  if (!isObj(sp)) return [];
  const errs: FieldError[] = [];
  const type = str(sp.type);
  if (type === '') errs.push(field.required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!['RuntimeDefault', 'Unconfined', 'Localhost'].includes(type)) {
    errs.push(field.notSupported(path.child('type'), type, ['RuntimeDefault', 'Localhost', 'Unconfined']));
  }
  if (type === 'Localhost') {
    if (!isSet(sp.localhostProfile)) errs.push(field.required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(str(sp.localhostProfile), path.child('localhostProfile')));
  } else if (isSet(sp.localhostProfile)) {
    errs.push(field.invalid(path.child('localhostProfile'), new GoLiteral(`&core.SeccompProfile${JSON.stringify(sp)}`), 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

const maxGMSACredentialSpecLength = 64 * 1024;
const maxRunAsUserNameDomainLength = 256;
const maxRunAsUserNameUserLength = 104;

export function validateWindowsSecurityContextOptions(options: unknown, path: FieldPath): FieldError[] {
  if (!isObj(options)) return [];
  const errs: FieldError[] = [];
  if (isSet(options.gmsaCredentialSpecName)) {
    const name = str(options.gmsaCredentialSpecName);
    errs.push(...nameIsDNSSubdomain(name, false).map((m) => field.invalid(path.child('gmsaCredentialSpecName'), name, m)));
  }
  if (isSet(options.gmsaCredentialSpec)) {
    const spec = str(options.gmsaCredentialSpec);
    if (spec.length === 0) errs.push(field.invalid(path.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (spec.length > maxGMSACredentialSpecLength) {
      errs.push(field.invalid(path.child('gmsaCredentialSpec'), spec, `gmsaCredentialSpec size must be under ${maxGMSACredentialSpecLength / 1024} KiB`));
    }
  }
  if (isSet(options.runAsUserName)) {
    const user = str(options.runAsUserName);
    const p = path.child('runAsUserName');
    if (user.length === 0) errs.push(field.invalid(p, user, 'runAsUserName cannot be an empty string'));
    else if ([...user].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
      errs.push(field.invalid(p, user, 'runAsUserName cannot contain control characters'));
    } else {
      const parts = user.split('\\');
      if (parts.length > 2) errs.push(field.invalid(p, user, 'runAsUserName cannot contain more than one backslash'));
      else {
        const userName = parts[parts.length - 1];
        if (parts.length === 2 && parts[0].length > maxRunAsUserNameDomainLength) {
          errs.push(field.invalid(p, user, `runAsUserName's Domain length must be under ${maxRunAsUserNameDomainLength} characters`));
        }
        if (userName.length === 0) errs.push(field.invalid(p, user, "runAsUserName's User cannot be empty"));
        else if (userName.length > maxRunAsUserNameUserLength) {
          errs.push(field.invalid(p, user, `runAsUserName's User length must not be longer than ${maxRunAsUserNameUserLength} characters`));
        }
      }
    }
  }
  return errs;
}

