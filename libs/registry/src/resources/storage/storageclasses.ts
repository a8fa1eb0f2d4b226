// StorageClasses (storage.platform.io/v1), after pkg/registry/storage/storageclass and
// pkg/apis/storage/validation: provisioner, parameters, reclaimPolicy and volumeBindingMode are
// fixed once created.
import { BetaIsDefaultStorageClassAnnotation, IsDefaultStorageClassAnnotation, kindSchema, s } from '@plinth/api';
import { field, FieldError, FieldPath, validation } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';

type Obj = Record<string, unknown>;

const maxProvisionerParameterSize = 256 * (1 << 10);
const maxProvisionerParameterLen = 512;
const supportedReclaimPolicies = ['Delete', 'Retain'];
const supportedVolumeBindingModes = ['Immediate', 'WaitForFirstConsumer'];

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function validateProvisioner(provisioner: string, path: FieldPath): FieldError[] {
  if (provisioner.length === 0) return [field.required(path, provisioner)];
  return validation.isQualifiedName(provisioner.toLowerCase()).map((m) => field.invalid(path, provisioner.toLowerCase(), m));
}

function validateParameters(params: unknown, path: FieldPath): FieldError[] {
  const entries = Object.entries(isObj(params) ? params : {});
  if (entries.length > maxProvisionerParameterLen) return [field.tooLong(path, 'Provisioner Parameters exceeded max allowed', maxProvisionerParameterLen)];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(field.invalid(path, k, 'field can not be empty.'));
    total += Buffer.byteLength(k) + Buffer.byteLength(str(v));
  }
  if (total > maxProvisionerParameterSize) errs.push(field.tooLong(path, '', maxProvisionerParameterSize));
  return errs;
}

function validateAllowedTopologies(topologies: unknown, path: FieldPath): FieldError[] {
  const terms = Array.isArray(topologies) ? topologies : [];
  if (terms.length === 0) return [];
  const errs: FieldError[] = [];
  // Kubernetes starts the seen list with one empty entry per term, so an empty term counts as
  // a duplicate of each of them.
  const seen: string[] = terms.map(() => '{}');
  terms.forEach((term, i) => {
    const exprPath = path.index(i).child('matchLabelExpressions');
    const exprMap = new Map<string, Set<string>>();
    const exprs = isObj(term) && Array.isArray(term.matchLabelExpressions) ? term.matchLabelExpressions : [];
    exprs.forEach((rq: unknown, j: number) => {
      const req = isObj(rq) ? rq : {};
      const idx = exprPath.index(j);
      const values = Array.isArray(req.values) ? req.values.map(String) : [];
      const valuesPath = idx.child('values');
      const set = new Set<string>();
      if (values.length === 0) errs.push(field.required(valuesPath, ''));
      values.forEach((v, k) => {
        if (set.has(v)) errs.push(field.duplicate(valuesPath.index(k), v));
        set.add(v);
      });
      errs.push(...validation.validateLabelName(str(req.key), idx.child('key')));
      if (exprMap.has(str(req.key))) errs.push(field.duplicate(idx.child('key'), str(req.key)));
      exprMap.set(str(req.key), set);
    });
    const canonical = JSON.stringify(
      Object.fromEntries([...exprMap.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, [...v].sort()])),
    );
    for (const t of seen) if (t === canonical) errs.push(field.duplicate(exprPath, ''));
    seen.push(canonical);
  });
  return errs;
}

// validateStorageClass is ValidateStorageClass without the object meta.
export function validateStorageClass(sc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateProvisioner(str(sc.provisioner), field.newPath('provisioner')));
  errs.push(...validateParameters(sc.parameters, field.newPath('parameters')));
  const reclaimPolicy = str(sc.reclaimPolicy);
  if (reclaimPolicy.length > 0 && !supportedReclaimPolicies.includes(reclaimPolicy)) {
    errs.push(field.notSupported(field.newPath('reclaimPolicy'), reclaimPolicy, supportedReclaimPolicies));
  }
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) errs.push(field.required(field.newPath('volumeBindingMode'), ''));
  else if (!supportedVolumeBindingModes.includes(str(sc.volumeBindingMode))) {
    errs.push(field.notSupported(field.newPath('volumeBindingMode'), sc.volumeBindingMode, supportedVolumeBindingModes));
  }
  errs.push(...validateAllowedTopologies(sc.allowedTopologies, field.newPath('allowedTopologies')));
  return errs;
}

// validateStorageClassUpdate is ValidateStorageClassUpdate without the object meta.
export function validateStorageClassUpdate(sc: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (canonicalJson(sc.parameters ?? {}) !== canonicalJson(old.parameters ?? {})) {
    errs.push(field.forbidden(field.newPath('parameters'), 'updates to parameters are forbidden.'));
  }
  if (str(sc.provisioner) !== str(old.provisioner)) errs.push(field.forbidden(field.newPath('provisioner'), 'updates to provisioner are forbidden.'));
  if (str(sc.reclaimPolicy) !== str(old.reclaimPolicy)) errs.push(field.forbidden(field.newPath('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode) errs.push(field.invalid(field.newPath('volumeBindingMode'), sc.volumeBindingMode ?? null, 'field is immutable'));
  return errs;
}

function canonicalJson(v: unknown): string {
  return isObj(v) && Object.keys(v).length === 0 ? '{}' : JSON.stringify(Object.fromEntries(Object.entries(isObj(v) ? v : {}).sort()));
}

export const storageClassStrategy: ResourceStrategy = {
  defaults(sc) {
    if (sc.reclaimPolicy === undefined || sc.reclaimPolicy === null) sc.reclaimPolicy = 'Delete';
    if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) sc.volumeBindingMode = 'Immediate';
  },
  validate: (sc) => validateStorageClass(sc),
  validateUpdate: (sc, old) => validateStorageClassUpdate(sc, old),
};

// isDefaultStorageClass is storageutil.IsDefaultAnnotation.
export function isDefaultStorageClass(annotations: Record<string, string> | undefined): boolean {
  return annotations?.[IsDefaultStorageClassAnnotation] === 'true' || annotations?.[BetaIsDefaultStorageClassAnnotation] === 'true';
}

const descriptions = {
  provisioner: 'provisioner indicates the type of the provisioner.',
  reclaimPolicy: 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
  volumeBindingMode:
    'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
  allowVolumeExpansion: 'allowVolumeExpansion shows whether the storage class allow volume expand.',
};

export const storageClassDefinition: ResourceDefinition = {
  group: 'storage.platform.io',
  version: 'v1',
  resource: 'storageclasses',
  singular: 'storageclass',
  kind: 'StorageClass',
  listKind: 'StorageClassList',
  namespaced: false,
  shortNames: ['sc'],
  verbs: objectVerbs,
  tracksGeneration: false,
  hasStatus: false,
  schema: kindSchema(
    {
      provisioner: s.string(descriptions.provisioner),
      parameters: s.stringMap('parameters holds the parameters for the provisioner that should create volumes of this storage class.'),
      reclaimPolicy: s.enumOf(['Delete', 'Recycle', 'Retain'], descriptions.reclaimPolicy),
      mountOptions: s.array(s.string(), { description: 'mountOptions controls the mountOptions for dynamically provisioned PersistentVolumes of this storage class.' }),
      allowVolumeExpansion: s.bool(descriptions.allowVolumeExpansion),
      volumeBindingMode: s.enumOf(['Immediate', 'WaitForFirstConsumer'], descriptions.volumeBindingMode),
      allowedTopologies: s.atomicList(
        s.object(
          {
            matchLabelExpressions: s.array(
              s.object(
                { key: s.string('The label key that the selector applies to.'), values: s.array(s.string()) },
                { required: ['key', 'values'], ref: 'io.k8s.api.core.v1.TopologySelectorLabelRequirement' },
              ),
            ),
          },
          { mapType: 'atomic', ref: 'io.k8s.api.core.v1.TopologySelectorTerm' },
        ),
        'allowedTopologies restrict the node topologies where volumes can be dynamically provisioned.',
      ),
    },
    'StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.',
    { required: ['provisioner'], ref: 'io.k8s.api.storage.v1.StorageClass' },
  ),
  strategy: storageClassStrategy,
  zeroValue: { provisioner: '' },
  table: {
    columns: [
      nameColumn,
      column('Provisioner', 'string', descriptions.provisioner),
      column('ReclaimPolicy', 'string', descriptions.reclaimPolicy),
      column('VolumeBindingMode', 'string', descriptions.volumeBindingMode),
      column('AllowVolumeExpansion', 'string', descriptions.allowVolumeExpansion),
      ageColumn,
    ],
    row(sc, now) {
      const name = (sc.metadata.name ?? '') + (isDefaultStorageClass(sc.metadata.annotations) ? ' (default)' : '');
      return [
        name,
        str(sc.provisioner),
        typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete',
        typeof sc.volumeBindingMode === 'string' ? sc.volumeBindingMode : 'Immediate',
        sc.allowVolumeExpansion === true,
        age(sc, now),
      ];
    },
  },
  deleteReturnsObject: true,
  nameValidation: 'dns-subdomain',
};
