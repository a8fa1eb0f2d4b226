// The scale subresource of custom resources (autoscaling/v1 Scale), after
// apiextensions-apiserver pkg/registry/customresource (ScaleREST): GET reads spec and status
// replicas (and the label selector) from the paths the CRD names; PUT and PATCH (merge or
// JSON patch) write spec replicas back, with the Scale's resourceVersion as precondition.
import { KubeObject, ManagedFieldsEntry, scaleSchema } from '@plinth/api';
import { parentManagedFields, replicasFieldPath, scaleManagedFields, updateManagedFields } from '@plinth/apply';
import { badRequest, notFound, unsupportedMediaType } from '@plinth/machinery';
import { applyJsonPatch, applyMergePatch } from '@plinth/patch';
import { ScaleSubresource } from '@plinth/registry';
import { decodeKindText } from '../decode';
import { mediaTypeOf, readBody } from '../http/body';
import { writeAny } from '../output';
import { fieldManagerOf, namespaceOf, RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';
import { JsonSyntaxError, nestingError, parseFieldValidation } from '../field-validation';
import { checkName } from './check-name';
import { patchDecodeError, PatchType } from './patch';

interface Scale {
  kind: 'Scale';
  apiVersion: 'autoscaling/v1';
  metadata: Record<string, unknown>;
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

function segments(path: string): string[] {
  return path.split('.').filter(Boolean);
}

function read(object: unknown, path: string): unknown {
  return segments(path).reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), object);
}

function write(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = segments(path);
  let current = object;
  for (const key of keys.slice(0, -1)) {
    if (!current[key] || typeof current[key] !== 'object') current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys[keys.length - 1]] = value;
}

export function toScale(object: KubeObject, scale: ScaleSubresource): Scale {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  const specReplicas = read(object, scale.specReplicasPath);
  const statusReplicas = read(object, scale.statusReplicasPath);
  const selector = scale.labelSelectorPath ? read(object, scale.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: typeof specReplicas === 'number' && specReplicas !== 0 ? { replicas: specReplicas } : {},
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(typeof selector === 'string' && selector ? { selector } : {}) },
  };
}

export async function serveScale(scope: RequestScope): Promise<void> {
  const scale = scope.def.scale;
  if (!scale) throw notFound(scope.store.qualifiedResource, scope.info.name);
  const namespace = namespaceOf(scope);
  if (scope.info.verb === 'get') {
    writeAny(scope, 200, toScale(await scope.store.get(namespace, scope.info.name), scale));
    return;
  }
  const options = parseWriteOptions(scope.query, scope.info.verb === 'patch' ? 'PatchOptions' : 'UpdateOptions');
  const body = (await readBody(scope.req)).toString('utf8');
  const mediaType = mediaTypeOf(scope.req);
  const patchType = scalePatchTypes[mediaType];
  let parsed: unknown;
  if (scope.info.verb === 'update') {
    parsed = decodeKindText(body, scaleTarget);
    checkName(scope, { ...(parsed as object), metadata: (parsed as Partial<Scale>)?.metadata ?? {} } as KubeObject);
  } else {
    try {
      parsed = JSON.parse(body);
    } catch (err) {
      throw badRequest(`error decoding patch: ${(err as Error).message}`);
    }
    const nesting = nestingError(body, parsed);
    if (nesting !== null) {
      const mode = parseFieldValidation(scope.query.get('fieldValidation'), 'PatchOptions');
      if (patchType) throw patchDecodeError(patchType, mode, new JsonSyntaxError(nesting, 0));
      throw badRequest(`couldn't get version/kind; json parse error: ${nesting}`);
    }
  }
  const result = await scope.store.update(
    namespace,
    scope.info.name,
    (current) => {
      if (!current) throw notFound(scope.store.qualifiedResource, scope.info.name);
      const currentScale = toScale(current, scale);
      const desired = scaleFromRequest(scope, currentScale, parsed, mediaType);
      // The custom resource's own validation judges the replicas written (ValidateScaleSpec).
      const next = structuredClone(current) as KubeObject & Record<string, unknown>;
      write(next, scale.specReplicasPath, desired.spec?.replicas ?? 0);
      const managedFields = scaleWriteManagedFields(scope, fieldManagerOf(scope, options.fieldManager).manager, current, currentScale, desired.spec?.replicas ?? 0, scale);
      if (managedFields) next.metadata.managedFields = managedFields;
      else delete next.metadata.managedFields;
      // A Scale without a resourceVersion updates the current object, one with it only that one.
      const resourceVersion = desired.metadata?.resourceVersion;
      if (typeof resourceVersion === 'string' && resourceVersion !== '') next.metadata.resourceVersion = resourceVersion;
      return next;
    },
    { dryRun: options.dryRun },
  );
  writeAny(scope, 200, toScale(result.object, scale));
}

// scaleWriteManagedFields tracks a Scale write as kube-apiserver's ScaleHandler does: on the
// Scale, then mapped back onto the custom resource's managers.
function scaleWriteManagedFields(scope: RequestScope, manager: string, current: KubeObject, currentScale: Scale, replicas: number, scale: ScaleSubresource): ManagedFieldsEntry[] | undefined {
  const replicasPath = replicasFieldPath(scale.specReplicasPath);
  const scaleEntries = scaleManagedFields(current.metadata.managedFields, replicasPath);
  const live = { ...currentScale, metadata: { ...currentScale.metadata, managedFields: scaleEntries } } as unknown as KubeObject;
  const updated = { ...live, spec: { ...currentScale.spec, replicas } } as KubeObject;
  const tracked = updateManagedFields({ live, updated, manager, apiVersion: 'autoscaling/v1', subresource: 'scale', now: new Date(scope.server.clock.now()), schema: scaleSchema });
  return parentManagedFields(current.metadata.managedFields, tracked, `${scope.def.group}/${scope.def.version}`, replicasPath);
}

const scalePatchTypes: Record<string, Exclude<PatchType, 'apply'>> = {
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/json-patch+json': 'json',
};

const scaleTarget = { group: 'autoscaling', version: 'v1', kind: 'Scale', schema: scaleSchema };

// scaleFromRequest is the Scale asked for: an update's body, or the current Scale patched, read
// as Go reads it into the Scale struct.
function scaleFromRequest(scope: RequestScope, current: Scale, body: unknown, mediaType: string): Partial<Scale> {
  if (scope.info.verb === 'update') return (body ?? {}) as Partial<Scale>;
  let patched: unknown;
  switch (mediaType) {
    case 'application/merge-patch+json':
    case 'application/strategic-merge-patch+json':
      patched = applyMergePatch(current, body);
      break;
    case 'application/json-patch+json':
      patched = applyJsonPatch(current, body);
      break;
    default:
      throw unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  }
  return decodeKindText(JSON.stringify(patched), scaleTarget) as Partial<Scale>;
}
