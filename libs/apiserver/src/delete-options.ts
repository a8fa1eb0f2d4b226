// DeleteOptions from the body or the query: gracePeriodSeconds, propagationPolicy (or the
// deprecated orphanDependents), preconditions and dryRun; invalid ones are 422 on
// DeleteOptions, as kube-apiserver's ValidateDeleteOptions answers.
import { badRequest, field, FieldError, invalid } from '@plinth/machinery';
import { DeleteOptions, PropagationPolicy } from '@plinth/registry';
import { mediaTypeOf, protobufMediaType, protobufToJson, readBody, yamlToJson } from './http/body';
import { RequestScope } from './scope';
import { parseDryRun } from './write-options';

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

export async function parseDeleteOptions(scope: RequestScope): Promise<DeleteOptions> {
  const body = await readDeleteBody(scope);
  const { query } = scope;
  const errs: FieldError[] = [];
  let dryRun = parseDryRun(query, errs);
  for (const value of body.dryRun ?? []) {
    if (value !== 'All') errs.push(field.notSupported(field.newPath('dryRun'), value, ['All']));
    dryRun = true;
  }
  const graceQuery = query.get('gracePeriodSeconds');
  let gracePeriodSeconds = body.gracePeriodSeconds;
  if (graceQuery !== null && graceQuery !== '') {
    if (!/^-?\d+$/.test(graceQuery)) throw badRequest(`invalid value for gracePeriodSeconds: ${graceQuery}`);
    gracePeriodSeconds = Number(graceQuery);
  }
  let propagationPolicy = query.get('propagationPolicy') ?? body.propagationPolicy ?? undefined;
  const orphanQuery = query.get('orphanDependents');
  const orphanDependents = orphanQuery !== null ? orphanQuery !== 'false' && orphanQuery !== '0' : body.orphanDependents;
  if (orphanDependents !== undefined && propagationPolicy !== undefined) {
    errs.push(field.invalid(field.newPath('propagationPolicy'), propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (propagationPolicy !== undefined && !policies.includes(propagationPolicy)) {
    errs.push(field.notSupported(field.newPath('propagationPolicy'), propagationPolicy, policies));
  }
  if (orphanDependents !== undefined && propagationPolicy === undefined) propagationPolicy = orphanDependents ? 'Orphan' : 'Background';
  if (errs.length > 0) throw invalid({ group: 'meta.platform.io', kind: 'DeleteOptions' }, '', errs);
  return {
    dryRun,
    gracePeriodSeconds: gracePeriodSeconds !== undefined && gracePeriodSeconds < 0 ? 1 : gracePeriodSeconds,
    propagationPolicy: propagationPolicy as PropagationPolicy | undefined,
    preconditions: body.preconditions,
  };
}

// warnOfDefaultOrphaning adds the type's Warning to a delete that names no propagation policy.
export function warnOfDefaultOrphaning(scope: RequestScope, options: DeleteOptions): void {
  if (options.propagationPolicy === undefined && scope.def.orphanByDefaultWarning) scope.response.warnings.push(scope.def.orphanByDefaultWarning);
}

async function readDeleteBody(scope: RequestScope): Promise<DeleteOptionsBody> {
  const raw = await readBody(scope.req);
  if (raw.length === 0) return {};
  const text = mediaTypeOf(scope.req) === 'application/yaml' ? yamlToJson(raw) : protobufMediaType(scope.req) ? protobufToJson(raw) : raw.toString('utf8');
  try {
    const parsed = JSON.parse(text) as DeleteOptionsBody;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch (err) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}
