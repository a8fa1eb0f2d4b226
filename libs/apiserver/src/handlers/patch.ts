// PATCH of an object or its status: JSON merge patch, JSON patch and strategic merge patch
// applied to the current object, then the same defaulting, validation and compare-and-swap as
// an update (retried when another writer got in first and the patch named no
// resourceVersion). Server-side apply lives in apply.ts.
import { KubeObject } from '@plinth/api';
import { badRequest, notFound, unsupportedMediaType } from '@plinth/machinery';
import { applyJsonPatch, applyStrategicMergePatch, mergePatch } from '@plinth/patch';
import { admitPod, admitRbacWrite } from '../admission';
import { decodeText } from '../decode';
import { FieldValidation, nestingError, parseFieldValidation } from '../field-validation';
import { readBody, mediaTypeOf } from '../http/body';
import { writeResult } from '../output';
import { fieldManagerOf, namespaceOf, RequestScope } from '../scope';
import { applyResource } from './apply';
import { parseWriteOptions } from '../write-options';

export const patchMediaTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

function patchTypeOf(mediaType: string): PatchType {
  switch (mediaType) {
    case 'application/apply-patch+yaml':
      return 'apply';
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    default:
      throw unsupportedMediaType(patchMediaTypes);
  }
}

export async function patchResource(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'PatchOptions');
  const type = patchTypeOf(mediaTypeOf(scope.req));
  const mode = parseFieldValidation(scope.query.get('fieldValidation'), 'PatchOptions');
  const raw = (await readBody(scope.req)).toString('utf8');
  if (type === 'apply') return applyResource(scope, raw, options, mode);
  let patch: unknown;
  try {
    patch = JSON.parse(raw);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
  checkPatchNesting(type, mode, raw, patch);
  const subresource = scope.info.subresource === 'status' ? 'status' : undefined;
  const result = await scope.store.update(
    namespaceOf(scope),
    scope.info.name,
    async (current) => {
      if (!current) throw notFound(scope.store.qualifiedResource, scope.info.name);
      const patched = decodeText(scope, JSON.stringify(applyPatch(scope, type, current, patch)), mode);
      await admitRbacWrite(scope, patched, current);
      await admitPod(scope, patched, current);
      return patched;
    },
    { dryRun: options.dryRun, subresource, fieldManager: fieldManagerOf(scope, options.fieldManager) },
    false,
  );
  writeResult(scope, 200, result.object);
}

// applyPatch applies the patch; a PatchError is a StatusError with Kubernetes' code and message.
function applyPatch(scope: RequestScope, type: Exclude<PatchType, 'apply'>, current: KubeObject, patch: unknown): unknown {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, patch as never);
    case 'merge':
      return mergePatch(current, patch);
    case 'strategic':
      return applyStrategicMergePatch(current, patch, scope.def.schema);
  }
}

// checkPatchNesting refuses a patch nested deeper than encoding/json decodes, before the patch
// (which recurses) is applied, with the answer of the decoder kube-apiserver runs for the patch
// type: the strict decoder under Warn and Strict ("error decoding patch: ..."), json-patch's
// decoders under Ignore, and the strategic merge decoder's error as it is.
export function checkPatchNesting(type: Exclude<PatchType, 'apply'>, mode: FieldValidation, raw: string, patch: unknown): void {
  const error = nestingError(raw, patch);
  if (error === null) return;
  if (type === 'strategic') throw badRequest(error);
  if (mode === FieldValidation.Ignore) throw badRequest(type === 'merge' ? 'Invalid JSON Patch' : error);
  throw badRequest(`error decoding patch: ${error}`);
}
