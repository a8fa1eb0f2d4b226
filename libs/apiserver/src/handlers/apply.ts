// Server-side apply (PATCH with application/apply-patch+yaml): the applied configuration is
// merged into the live object by field ownership, conflicts with other managers are 409 unless
// forced, and an object that does not exist is created (201).
import { applyObject, statusResetFields, typedValueErrors } from '@plinth/apply';
import { KubeObject, Schema } from '@plinth/api';
import { badRequest, carryExactIntegers, cloneJson, unclassifiedError } from '@plinth/machinery';
import { admitNamespacedCreate, admitPod, admitRbacWrite } from '../admission';
import { authorizeRequest } from '../auth/filter';
import { decodeText } from '../decode';
import { checkName } from './check-name';
import { FieldValidation, strictErrorWarnings, unknownFields } from '../field-validation';
import { yamlToJson } from '../http/body';
import { goYamlStrictError } from '../http/go-yaml';
import { writeResult } from '../output';
import { clientApiVersion, namespaceOf, RequestScope } from '../scope';
import { queryBool } from '../request-info';
import { WriteOptions } from '../write-options';

async function authorizeApplyCreate(scope: RequestScope): Promise<void> {
  const auth = scope.server.auth;
  if (!auth) return;
  await authorizeRequest({ ...scope.info, verb: 'create' }, scope.user, scope.def.group, auth);
}

// checkApplyType is the field manager's version check: an apply configuration names the
// endpoint's apiVersion and kind (400 "invalid object type: <group>/<version>, Kind=<kind>").
function checkApplyType(scope: RequestScope, body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const { apiVersion, kind } = body as { apiVersion?: unknown; kind?: unknown };
  const version = typeof apiVersion === 'string' ? apiVersion : '';
  const kindName = typeof kind === 'string' ? kind : '';
  if ([scope.store.apiVersion, clientApiVersion(scope)].includes(version) && kindName === scope.def.kind) return;
  // unstructured GroupVersionKind(): an apiVersion with more than one slash names nothing
  const slashes = version.split('/').length - 1;
  const gvk = slashes > 1 ? '/, Kind=' : `${slashes === 1 ? version : `/${version}`}, Kind=${kindName}`;
  throw badRequest(`invalid object type: ${gvk}`);
}

// checkApplyYamlStrictly is applyPatcher's strict reading of the configuration
// (yaml.UnmarshalStrict): its error refuses the request under Strict and warns under Warn.
// checkTypedPatch refuses an apply configuration with fields its schema does not declare (a
// custom resource's too, where its schema does not preserve unknown fields) or scalars of
// another type than their field's, whatever fieldValidation says: the field manager cannot make
// it a typed patch, and kube-apiserver answers its error as a 500.
function checkTypedPatch(configuration: Record<string, unknown>, schema: Schema): void {
  const errors = [...unknownFields(configuration, schema).map((path) => `.${path}: field not declared in schema`), ...typedValueErrors(configuration, schema).map((e) => `${e.path}: ${e.message}`)];
  if (errors.length === 0) return;
  throw unclassifiedError(`failed to create typed patch object (${typedPatchObject(configuration)}): ${typedPatchErrors(errors)}`);
}

// typedPatchObject names the configuration as the field manager does: namespace/name; GroupVersionKind.
function typedPatchObject(configuration: Record<string, unknown>): string {
  const metadata = (configuration.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const apiVersion = String(configuration.apiVersion ?? '');
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${String(metadata.namespace ?? '')}/${String(metadata.name ?? '')}; ${group}/${version}, Kind=${String(configuration.kind ?? '')}`;
}

// typedPatchErrors is structured-merge-diff's ValidationErrors text.
function typedPatchErrors(errors: string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((error) => `  ${error}`)].join('\n');
}

function checkApplyYamlStrictly(scope: RequestScope, raw: string, mode: FieldValidation): void {
  if (mode === FieldValidation.Ignore) return;
  const error = goYamlStrictError(raw);
  if (!error) return;
  if (mode === FieldValidation.Strict) throw badRequest(`error strict decoding YAML: error converting YAML to JSON: ${error}`);
  scope.response.warnings.push(...strictErrorWarnings(error));
}

export async function applyResource(scope: RequestScope, raw: string, options: WriteOptions, mode: FieldValidation): Promise<void> {
  const force = queryBool(scope.query, 'force');
  // applyPatcher reads the configuration with sigs.k8s.io/yaml's Unmarshal
  const text = yamlToJson(Buffer.from(raw), (message) => badRequest(`error decoding YAML: error converting YAML to JSON: ${message}`));
  const configuration = JSON.parse(text);
  checkApplyType(scope, configuration);
  checkTypedPatch(configuration, scope.def.schema);
  const applied = decodeText(scope, text, mode);
  checkApplyYamlStrictly(scope, raw, mode);
  const subresource = scope.info.subresource === 'status' ? 'status' : undefined;
  const result = await scope.store.update(
    namespaceOf(scope),
    scope.info.name,
    async (current: KubeObject | null) => {
      if (!current) {
        // An apply that creates needs create as well as patch (Document 1).
        await authorizeApplyCreate(scope);
        await admitNamespacedCreate(scope, scope.info.name);
      }
      const merged = applyObject({
        live: current,
        applied: cloneJson(applied),
        manager: options.fieldManager,
        force,
        apiVersion: clientApiVersion(scope),
        subresource,
        schema: scope.def.schema,
        now: new Date(scope.server.clock.now()),
        resetFields: scope.def.subresources?.includes('status') ? statusResetFields(subresource) : undefined,
      });
      const object = merged.object;
      checkName(scope, object);
      carryExactIntegers(object, applied, current);
      object.metadata = { ...object.metadata, managedFields: merged.managedFields };
      if (current) object.metadata.resourceVersion = current.metadata.resourceVersion;
      await admitRbacWrite(scope, object, current);
      await admitPod(scope, object, current);
      return object;
    },
    { dryRun: options.dryRun, subresource },
    !subresource,
  );
  writeResult(scope, result.created ? 201 : 200, result.object);
}
