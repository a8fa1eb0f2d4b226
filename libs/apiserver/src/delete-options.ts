// DeleteOptions from the body or the query: gracePeriodSeconds, propagationPolicy (or the
// deprecated orphanDependents), preconditions and dryRun; invalid ones are 422 on
// DeleteOptions, as kube-apiserver's ValidateDeleteOptions answers. A body is decoded as Go
// decodes it into metav1.DeleteOptions: a value of the wrong type, a body that is not an
// object, or another kind is a 400 before anything is deleted (kube-apiserver 1.28 answers
// these with a 500; Kubernetes made them 400s in 1.35).
import { deleteOptionsSchema } from '@plinth/api';
import { badRequest, field, FieldError, goQuote, invalid } from '@plinth/machinery';
import { DeleteOptions, PropagationPolicy } from '@plinth/registry';
import { applyFieldValidation, BodyDecodeError, FieldValidation, TypeDecodeError } from './field-validation';
import { mediaTypeOf, protobufMediaType, protobufToJson, readBody, yamlToJson } from './http/body';
import { integer } from './list-options';
import { RequestScope } from './scope';

interface DeleteOptionsBody {
  kind?: string;
  apiVersion?: string;
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

const policies = ['Orphan', 'Background', 'Foreground'];
// supportedPolicies are the values ValidateDeleteOptions names when it refuses one, "nil" included.
const supportedPolicies = ['Foreground', 'Background', 'Orphan', 'nil'];

// parseDeleteOptions reads the options as kube-apiserver's delete handlers do: from the body
// when there is one (the query is then not read), else from the query.
export async function parseDeleteOptions(scope: RequestScope): Promise<DeleteOptions> {
  const options = (await readDeleteBody(scope)) ?? deleteOptionsFromQuery(scope.query);
  const errs: FieldError[] = [];
  // ValidateDryRun refuses the whole list once when any value is not All.
  const dryRun = options.dryRun ?? [];
  if (dryRun.some((value) => value !== 'All')) errs.push(field.notSupported(field.newPath('dryRun'), dryRun, ['All']));
  const { gracePeriodSeconds, orphanDependents } = options;
  let propagationPolicy = options.propagationPolicy;
  if (orphanDependents !== undefined && propagationPolicy !== undefined) {
    errs.push(field.invalid(field.newPath('propagationPolicy'), propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (propagationPolicy !== undefined && !policies.includes(propagationPolicy)) {
    errs.push(field.notSupported(field.newPath('propagationPolicy'), propagationPolicy, supportedPolicies));
  }
  if (orphanDependents !== undefined && propagationPolicy === undefined) propagationPolicy = orphanDependents ? 'Orphan' : 'Background';
  if (errs.length > 0) throw invalid({ group: 'meta.platform.io', kind: 'DeleteOptions' }, '', errs);
  return {
    dryRun: (options.dryRun ?? []).length > 0,
    gracePeriodSeconds: gracePeriodSeconds !== undefined && gracePeriodSeconds < 0 ? 1 : gracePeriodSeconds,
    propagationPolicy: propagationPolicy as PropagationPolicy | undefined,
    preconditions: options.preconditions,
  };
}

// deleteOptionsFromQuery is the parameter codec's DeleteOptions: gracePeriodSeconds an int64,
// orphanDependents false only for "0" and "false" (any case), and a non-empty uid or
// resourceVersion a precondition (Convert_url_Values_To_v1_DeleteOptions).
function deleteOptionsFromQuery(query: URLSearchParams): DeleteOptionsBody {
  const orphan = query.get('orphanDependents');
  const dryRun = query.getAll('dryRun');
  const uid = query.get('uid') || undefined;
  const resourceVersion = query.get('resourceVersion') || undefined;
  return {
    gracePeriodSeconds: integer(query, 'gracePeriodSeconds'),
    propagationPolicy: query.get('propagationPolicy') ?? undefined,
    orphanDependents: orphan === null ? undefined : orphan !== '0' && orphan.toLowerCase() !== 'false',
    dryRun: dryRun.length > 0 ? dryRun : undefined,
    ...(uid || resourceVersion ? { preconditions: { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) } } : {}),
  };
}

// warnOfDefaultOrphaning adds the type's Warning to a delete that names no propagation policy.
export function warnOfDefaultOrphaning(scope: RequestScope, options: DeleteOptions): void {
  if (options.propagationPolicy === undefined && scope.def.orphanByDefaultWarning) scope.response.warnings.push(scope.def.orphanByDefaultWarning);
}

// metaSchemeName is the name of the scheme DeleteOptions bodies are decoded with, as its
// not-registered errors print it.
const metaSchemeName = 'k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27';

async function readDeleteBody(scope: RequestScope): Promise<DeleteOptionsBody | undefined> {
  const raw = await readBody(scope.req);
  if (raw.length === 0) return undefined;
  const text = mediaTypeOf(scope.req) === 'application/yaml' ? yamlToJson(raw) : protobufMediaType(scope.req) ? protobufToJson(raw) : raw.toString('utf8');
  let body: DeleteOptionsBody;
  try {
    body = applyFieldValidation(text, deleteOptionsSchema, FieldValidation.Ignore, 'DeleteOptions').object as DeleteOptionsBody;
  } catch (err) {
    if (err instanceof BodyDecodeError || err instanceof TypeDecodeError) throw badRequest(err.message);
    throw err;
  }
  if (body.kind && body.kind !== 'DeleteOptions') {
    throw badRequest(`no kind ${goQuote(body.kind)} is registered for version ${goQuote(body.apiVersion || 'meta.k8s.io/v1')} in scheme ${goQuote(metaSchemeName)}`);
  }
  return body;
}
