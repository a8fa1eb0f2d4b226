// Volume validation of pkg/apis/core/validation (v1.28): ValidateVolumes and
// validateVolumeSource with the checks of each source type.
import { field, FieldError, FieldPath } from '@plinth/machinery';
import { validateContainerResourceFieldSelector, validateObjectFieldSelector, VolumeSources } from './pod-validation-containers';
import {
  fileModeErrorMsg,
  isObj,
  isSet,
  num,
  Obj,
  objects,
  parseQuantityField,
  str,
  strings,
  validateDNS1123Label,
  validateLocalDescendingPath,
  validateLocalNonReservedPath,
  validatePathNoBacksteps,
  nameIsDNSSubdomain,
} from './validation-helpers';

const supportedHostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const validVolumeDownwardAPIFieldPathExpressions = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

// sourceOrder is the order validateVolumeSource visits the source types in.
const sourceOrder = [
  'hostPath', 'emptyDir', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
  'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO', 'csi', 'ephemeral',
];

// requiredFields lists, per source type without a dedicated check here, its required strings.
const requiredFields: Record<string, string[]> = {
  gitRepo: ['repository'],
  gcePersistentDisk: ['pdName'],
  awsElasticBlockStore: ['volumeID'],
  iscsi: ['targetPortal', 'iqn'],
  glusterfs: ['endpoints', 'path'],
  rbd: ['image'],
  cinder: ['volumeID'],
  quobyte: ['registry', 'volume'],
  flexVolume: ['driver'],
  azureFile: ['secretName', 'shareName'],
  vsphereVolume: ['volumePath'],
  photonPersistentDisk: ['pdID'],
  portworxVolume: ['volumeID'],
  azureDisk: ['diskName', 'diskURI'],
  scaleIO: ['gateway', 'system'],
};

// validateVolumes returns the valid volumes by name and the errors.
export function validateVolumes(volumes: unknown, podName: string | undefined, path: FieldPath): [VolumeSources, FieldError[]] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const vols: VolumeSources = new Map();
  const list = objects(volumes);
  const createdPVCs = new Set<string>();
  if (podName) for (const v of list) if (isObj(v.ephemeral)) createdPVCs.add(`${podName}-${str(v.name)}`);
  list.forEach((vol, i) => {
    const idx = path.index(i);
    const namePath = idx.child('name');
    const name = str(vol.name);
    const el = validateVolumeSource(vol, idx, name, podName);
    if (name.length === 0) el.push(field.required(namePath, ''));
    else el.push(...validateDNS1123Label(name, namePath));
    if (names.has(name)) el.push(field.duplicate(namePath, name));
    if (el.length === 0) {
      names.add(name);
      vols.set(name, vol);
    } else errs.push(...el);
    const pvc = vol.persistentVolumeClaim;
    if (isObj(pvc) && createdPVCs.has(str(pvc.claimName))) {
      errs.push(field.invalid(idx.child('persistentVolumeClaim', 'claimName'), str(pvc.claimName), 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return [vols, errs];
}

function validateVolumeSource(source: Obj, path: FieldPath, volName: string, podName: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of sourceOrder) {
    const src = source[kind];
    if (!isObj(src)) continue;
    if (count > 0) {
      errs.push(field.forbidden(path.child(kind), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...validateSource(kind, src, path.child(kind), volName, podName));
  }
  if (count === 0) errs.push(field.required(path, 'must specify a volume type'));
  return errs;
}

function requireStrings(src: Obj, fields: string[], path: FieldPath): FieldError[] {
  return fields.filter((f) => str(src[f]).length === 0).map((f) => field.required(path.child(f), ''));
}

function validateMode(mode: unknown, path: FieldPath): FieldError[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [field.invalid(path, mode, fileModeErrorMsg)] : [];
}

function validateKeyToPaths(items: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(items).forEach((kp, i) => {
    const p = path.index(i);
    if (str(kp.key).length === 0) errs.push(field.required(p.child('key'), ''));
    if (str(kp.path).length === 0) errs.push(field.required(p.child('path'), ''));
    errs.push(...validateLocalNonReservedPath(str(kp.path), p.child('path')));
    errs.push(...validateMode(kp.mode, p.child('mode')));
  });
  return errs;
}

function validateDownwardAPIFiles(items: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(items).forEach((file, i) => {
    const p = path.index(i);
    const filePath = str(file.path);
    if (filePath.length === 0) errs.push(field.required(p.child('path'), ''));
    errs.push(...validateLocalNonReservedPath(filePath, p.child('path')));
    if (isObj(file.fieldRef)) {
      errs.push(...validateObjectFieldSelector(file.fieldRef, validVolumeDownwardAPIFieldPathExpressions, p.child('fieldRef')));
      if (isObj(file.resourceFieldRef)) errs.push(field.invalid(p, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    } else if (isObj(file.resourceFieldRef)) {
      errs.push(...validateContainerResourceFieldSelector(file.resourceFieldRef, p.child('resourceFieldRef'), true));
    } else {
      errs.push(field.required(p, 'one of fieldRef and resourceFieldRef is required'));
    }
    errs.push(...validateMode(file.mode, p.child('mode')));
  });
  return errs;
}

function validateSource(kind: string, src: Obj, path: FieldPath, volName: string, podName: string | undefined): FieldError[] {
  switch (kind) {
    case 'hostPath': {
      const p = str(src.path);
      if (p.length === 0) return [field.required(path.child('path'), '')];
      const errs = validatePathNoBacksteps(p, path.child('path'));
      if (isSet(src.type) && !supportedHostPathTypes.includes(str(src.type))) errs.push(field.notSupported(path.child('type'), src.type, supportedHostPathTypes));
      return errs;
    }
    case 'emptyDir': {
      const errs: FieldError[] = [];
      if (isSet(src.sizeLimit)) {
        const q = parseQuantityField(src.sizeLimit, path.child('sizeLimit'), errs);
        if (q && q.nanos < 0n) errs.push(field.forbidden(path.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
      }
      return errs;
    }
    case 'secret': {
      const errs = str(src.secretName).length === 0 ? [field.required(path.child('secretName'), '')] : [];
      errs.push(...validateMode(src.defaultMode, path.child('defaultMode')));
      errs.push(...validateKeyToPaths(src.items, path.child('items')));
      return errs;
    }
    case 'configMap': {
      const name = str(src.name);
      const errs =
        name.length === 0
          ? [field.required(path.child('name'), '')]
          : nameIsDNSSubdomain(name, false).map((m) => field.invalid(path.child('name'), name, m));
      errs.push(...validateMode(src.defaultMode, path.child('defaultMode')));
      errs.push(...validateKeyToPaths(src.items, path.child('items')));
      return errs;
    }
    case 'nfs': {
      const errs = requireStrings(src, ['server', 'path'], path);
      const p = str(src.path);
      if (p.length > 0 && !p.startsWith('/')) errs.push(field.invalid(path.child('path'), p, 'must be an absolute path'));
      return errs;
    }
    case 'persistentVolumeClaim':
      return requireStrings(src, ['claimName'], path);
    case 'downwardAPI': {
      const errs = validateMode(src.defaultMode, path.child('defaultMode'));
      errs.push(...validateDownwardAPIFiles(src.items, path.child('items')));
      return errs;
    }
    case 'projected':
      return validateProjectedVolumeSource(src, path);
    case 'csi': {
      const driver = str(src.driver);
      if (driver.length === 0) return [field.required(path.child('driver'), '')];
      return validateCSIDriverName(driver, path.child('driver'));
    }
    case 'ephemeral': {
      if (!isObj(src.volumeClaimTemplate)) return [field.required(path.child('volumeClaimTemplate'), '')];
      const errs: FieldError[] = [];
      if (podName && podName.length + volName.length + 1 > 253) {
        errs.push(field.invalid(path.child('volumeClaimTemplate'), `${podName}-${volName}`, 'must be no more than 253 characters'));
      }
      if (!isObj(src.volumeClaimTemplate.spec)) errs.push(field.required(path.child('volumeClaimTemplate', 'spec'), ''));
      else errs.push(...validatePVCSpec(src.volumeClaimTemplate.spec, path.child('volumeClaimTemplate', 'spec')));
      return errs;
    }
    case 'gcePersistentDisk':
    case 'awsElasticBlockStore': {
      const errs = requireStrings(src, requiredFields[kind], path);
      const partition = num(src.partition);
      if (partition < 0 || partition > 255) errs.push(field.invalid(path.child('partition'), partition, 'must be in the range 0-255'));
      return errs;
    }
    case 'gitRepo': {
      const errs = requireStrings(src, ['repository'], path);
      errs.push(...validateLocalDescendingPath(str(src.directory), path.child('directory')));
      return errs;
    }
    case 'iscsi': {
      const errs = requireStrings(src, requiredFields.iscsi, path);
      const lun = num(src.lun);
      if (lun < 0 || lun > 255) errs.push(field.invalid(path.child('lun'), lun, 'must be between 0 and 255, inclusive'));
      return errs;
    }
    case 'rbd': {
      const errs = strings(src.monitors).length === 0 ? [field.required(path.child('monitors'), '')] : [];
      errs.push(...requireStrings(src, ['image'], path));
      return errs;
    }
    case 'cephfs':
      return strings(src.monitors).length === 0 ? [field.required(path.child('monitors'), '')] : [];
    case 'flocker': {
      const name = str(src.datasetName);
      const uuid = str(src.datasetUUID);
      if (name.length === 0 && uuid.length === 0) return [field.required(path, 'one of datasetName and datasetUUID is required')];
      if (name.length > 0 && uuid.length > 0) return [field.invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously')];
      if (name.includes('/')) return [field.invalid(path.child('datasetName'), name, "must not contain '/'")];
      return [];
    }
    case 'fc': {
      const wwns = strings(src.targetWWNs);
      const wwids = strings(src.wwids);
      if (wwns.length === 0 && wwids.length === 0) {
        return [field.required(path.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both')];
      }
      if (wwns.length > 0 && wwids.length > 0) {
        return [field.invalid(path.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously')];
      }
      if (wwns.length > 0 && !isSet(src.lun)) return [field.required(path.child('lun'), 'lun is required if targetWWNs is specified')];
      if (wwns.length > 0 && (num(src.lun) < 0 || num(src.lun) > 255)) return [field.invalid(path.child('lun'), num(src.lun), 'must be between 0 and 255, inclusive')];
      return [];
    }
    case 'azureDisk': {
      const errs = requireStrings(src, requiredFields.azureDisk, path);
      if (isSet(src.cachingMode) && !['None', 'ReadOnly', 'ReadWrite'].includes(str(src.cachingMode))) {
        errs.push(field.notSupported(path.child('cachingMode'), src.cachingMode, ['None', 'ReadOnly', 'ReadWrite']));
      }
      if (isSet(src.kind) && !['Dedicated', 'Managed', 'Shared'].includes(str(src.kind))) {
        errs.push(field.notSupported(path.child('kind'), src.kind, ['Dedicated', 'Managed', 'Shared']));
      }
      return errs;
    }
    case 'scaleIO': {
      const errs = requireStrings(src, requiredFields.scaleIO, path);
      if (!isObj(src.secretRef)) errs.push(field.required(path.child('secretRef'), ''));
      if (str(src.volumeName).length === 0) errs.push(field.required(path.child('volumeName'), ''));
      return errs;
    }
    case 'storageos': {
      const errs: FieldError[] = [];
      if (str(src.volumeName).length === 0) errs.push(field.required(path.child('volumeName'), ''));
      return errs;
    }
    default:
      return requireStrings(src, requiredFields[kind] ?? [], path);
  }
}

function validateProjectedVolumeSource(src: Obj, path: FieldPath): FieldError[] {
  const errs = validateMode(src.defaultMode, path.child('defaultMode'));
  const allPaths = new Set<string>();
  objects(src.sources).forEach((projection, i) => {
    const p = path.child('sources').index(i);
    let count = 0;
    const addPath = (filePath: string, where: FieldPath): void => {
      if (allPaths.has(filePath)) errs.push(field.invalid(where, filePath, 'conflicting duplicate paths'));
      allPaths.add(filePath);
    };
    for (const kind of ['secret', 'configMap']) {
      const s = projection[kind];
      if (!isObj(s)) continue;
      count++;
      if (str(s.name).length === 0) errs.push(field.required(p.child(kind, 'name'), ''));
      objects(s.items).forEach((kp, j) => {
        const ip = p.child(kind, 'items').index(j);
        if (str(kp.key).length === 0) errs.push(field.required(ip.child('key'), ''));
        if (str(kp.path).length === 0) errs.push(field.required(ip.child('path'), ''));
        errs.push(...validateLocalNonReservedPath(str(kp.path), ip.child('path')));
        errs.push(...validateMode(kp.mode, ip.child('mode')));
        addPath(str(kp.path), ip.child('path'));
      });
    }
    if (isObj(projection.downwardAPI)) {
      count++;
      errs.push(...validateDownwardAPIFiles(projection.downwardAPI.items, p.child('downwardAPI', 'items')));
      objects(projection.downwardAPI.items).forEach((f, j) => addPath(str(f.path), p.child('downwardAPI', 'items').index(j).child('path')));
    }
    if (isObj(projection.serviceAccountToken)) {
      count++;
      const token = projection.serviceAccountToken;
      const tp = p.child('serviceAccountToken');
      const expiration = token.expirationSeconds;
      if (typeof expiration === 'number') {
        if (expiration < 10 * 60) errs.push(field.invalid(tp.child('expirationSeconds'), expiration, 'may not specify a duration less than 10 minutes'));
        if (expiration > 4294967296) errs.push(field.invalid(tp.child('expirationSeconds'), expiration, 'may not specify a duration larger than 2^32 seconds'));
      }
      if (str(token.path).length === 0) errs.push(field.required(tp.child('path'), ''));
      else {
        errs.push(...validateLocalNonReservedPath(str(token.path), tp.child('path')));
        addPath(str(token.path), tp.child('path'));
      }
    }
    if (count > 1) errs.push(field.forbidden(p, 'may not specify more than 1 volume type'));
  });
  return errs;
}

function validateCSIDriverName(driver: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (driver.length > 63) errs.push(field.tooLong(path, driver, 63));
  if (!/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/.test(driver)) {
    errs.push(field.invalid(path, driver, "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  }
  return errs;
}

const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

function validatePVCSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const modes = strings(spec.accessModes);
  if (modes.length === 0) errs.push(field.required(path.child('accessModes'), 'at least 1 access mode is required'));
  for (const mode of modes) {
    errs.push(...field.validateEnum(path.child('accessModes'), mode, supportedAccessModes));
  }
  const resources = isObj(spec.resources) ? spec.resources : {};
  const requests = isObj(resources.requests) ? resources.requests : {};
  if (!isSet(requests.storage)) errs.push(field.required(path.child('resources').key('storage'), ''));
  else {
    const q = parseQuantityField(requests.storage, path.child('resources').key('storage'), errs);
    if (q && q.nanos <= 0n) errs.push(field.invalid(path.child('resources').key('storage'), String(requests.storage), 'must be greater than zero'));
  }
  if (isSet(spec.storageClassName) && str(spec.storageClassName).length > 0) {
    const name = str(spec.storageClassName);
    errs.push(...nameIsDNSSubdomain(name, false).map((m) => field.invalid(path.child('storageClassName'), name, m)));
  }
  if (isSet(spec.volumeMode) && !['Block', 'Filesystem'].includes(str(spec.volumeMode))) {
    errs.push(field.notSupported(path.child('volumeMode'), spec.volumeMode, ['Block', 'Filesystem']));
  }
  return errs;
}
