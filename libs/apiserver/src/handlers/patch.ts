// PATCH of an object or its status: JSON merge patch, JSON patch and strategic merge patch
// applied to the current object, then the same defaulting, validation and compare-and-swap as
// an update (retried when another writer got in first and the patch named no
// resourceVersion). Server-side apply lives in apply.ts.
import { KubeObject } from '@plinth/api';
import { badRequest, goQuote, notFound, StatusError, unsupportedMediaType } from '@plinth/machinery';
import { applyJsonPatch, applyStrategicMergePatch, goSprint, jsonPatchUnknownFields, mergePatch, patchShapeError } from '@plinth/patch';
import { admitPod, admitRbacWrite } from '../admission';
import { decodePatchedText, decodeStrategicPatchedText } from '../decode';
import { FieldValidation, hasInexactNumber, JsonSyntaxError, parseFieldValidation, parseStrictJson, StrictParseResult } from '../field-validation';
import { readBody, mediaTypeOf } from '../http/body';
import { writeResult } from '../output';
import { fieldManagerOf, namespaceOf, RequestScope } from '../scope';
import { applyResource } from './apply';
import { checkName } from './check-name';
import { tokenizeLiterals, withExactTokens } from './patch-literals';
import { parseWriteOptions } from '../write-options';

export const patchMediaTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

// routeUnsupportedMediaType is go-restful's 415 for a PATCH of a type its route does not consume,
// answered before any handler of a built-in resource.
function routeUnsupportedMediaType(): StatusError {
  const err = unsupportedMediaType([]);
  err.errStatus.message = '415: Unsupported Media Type';
  err.errStatus.details = {};
  return err;
}

// customResourcePatchMediaTypes are the patch types apiextensions-apiserver serves: no strategic
// merge patch, which needs Go types.
const customResourcePatchMediaTypes = patchMediaTypes.filter((type) => type !== 'application/strategic-merge-patch+json');

function patchTypeOf(mediaType: string, builtin: boolean): PatchType {
  if (!builtin && !customResourcePatchMediaTypes.includes(mediaType)) throw unsupportedMediaType(customResourcePatchMediaTypes);
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
      throw routeUnsupportedMediaType();
  }
}

export async function patchResource(scope: RequestScope): Promise<void> {
  const type = patchTypeOf(mediaTypeOf(scope.req), !scope.def.unstructured);
  const options = parseWriteOptions(scope.query, 'PatchOptions', type === 'apply' ? 'apply' : 'other');
  const mode = parseFieldValidation(scope.query.get('fieldValidation'), 'PatchOptions');
  const raw = (await readBody(scope.req)).toString('utf8');
  if (type === 'apply') return applyResource(scope, raw, options, mode);
  let parsed: StrictParseResult;
  try {
    parsed = parseStrictJson(raw, { duplicates: mode !== FieldValidation.Ignore, numberLiterals: !scope.def.unstructured || hasInexactNumber(raw) });
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw patchDecodeError(type, mode, err);
    throw err;
  }
  const patch = parsed.value;
  const shapeError = mode !== FieldValidation.Ignore && type !== 'strategic' ? patchShapeError(type, patch) : null;
  if (shapeError) throw badRequest(shapeError);
  const patchStrictErrors = checkPatchStrictly(scope, type, patch, parsed, mode);
  const literals = tokenizeLiterals(patch, parsed.literals, type === 'json');
  const subresource = scope.info.subresource === 'status' ? 'status' : undefined;
  const result = await scope.store.update(
    namespaceOf(scope),
    scope.info.name,
    async (current) => {
      if (!current) throw notFound(scope.store.qualifiedResource, scope.info.name);
      const exact = withExactTokens(current, literals);
      const patchedText = exact.tokens.restore(JSON.stringify(applyPatch(scope, type, exact.current as KubeObject, patch)));
      const patched =
        type === 'strategic'
          ? decodeStrategicPatchedText(scope, patchedText, mode, goSprint(patch), patchStrictErrors)
          : decodePatchedText(scope, patchedText, mode, type === 'merge' ? patch : undefined, patchStrictErrors);
      checkName(scope, patched);
      await admitRbacWrite(scope, patched, current);
      return patched;
    },
    { dryRun: options.dryRun, subresource, fieldManager: fieldManagerOf(scope, options.fieldManager), admit: (pod, old) => admitPod(scope, pod, old) },
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

// patchDecodeError answers a patch that does not decode. A patch nested too deep (refused while
// decoding, before the patch, which recurses, is applied) gets the answer of the decoder
// kube-apiserver runs for the patch type: the strict decoder under Warn and Strict ("error
// decoding patch: ..."), json-patch's decoders under Ignore, and the strategic merge decoder's
// error as it is.
export function patchDecodeError(type: Exclude<PatchType, 'apply'>, mode: FieldValidation, err: JsonSyntaxError): StatusError {
  if (!err.message.endsWith('exceeded max depth')) return badRequest(`error decoding patch: ${err.message}`);
  if (type === 'strategic') return badRequest(err.message);
  if (mode === FieldValidation.Ignore) return badRequest(type === 'merge' ? 'Invalid JSON Patch' : err.message);
  return badRequest(`error decoding patch: ${err.message}`);
}

// checkPatchStrictly reports what kube-apiserver's strict decoding of the patch finds: the keys
// it repeats and, in a JSON patch, the members its operations do not declare. Warning headers
// under Warn; under Strict errors returned to go before the patched object's (see
// decodePatchedText and decodeStrategicPatchedText). A JSON patch's errors say so ("json patch").
function checkPatchStrictly(scope: RequestScope, type: Exclude<PatchType, 'apply'>, patch: unknown, parsed: StrictParseResult, mode: FieldValidation): string[] {
  if (mode === FieldValidation.Ignore) return [];
  const prefix = type === 'json' ? 'json patch ' : '';
  const duplicates = parsed.duplicates.map((d) => `${prefix}duplicate field ${goQuote(d.path)}`);
  const unknown = type === 'json' ? jsonPatchUnknownFields(patch).map((path) => `${prefix}unknown field ${goQuote(path)}`) : [];
  const errors = [...new Set([...duplicates, ...unknown])];
  if (errors.length === 0) return [];
  if (mode === FieldValidation.Warn) {
    scope.response.warnings.push(...errors);
    return [];
  }
  return errors;
}
