// POST serviceaccounts/{name}/token (TokenRequest): a signed service-account JWT for an existing
// service account, with the audiences and expiry asked for (defaulted and capped as
// Kubernetes does), bound to a Pod or Secret that exists (TokenREST.Create).
import { KubeObject, ManagedFieldsEntry, tokenRequestSchema } from '@plinth/api';
import { fieldManagerName } from '@plinth/apply';
import { BoundObjectRef, checkTokenRequest, DefaultTokenExpirationSeconds, issueServiceAccountToken } from '@plinth/authn';
import { badRequest, conflict, field, invalid, notFound, rfc3339, serviceUnavailable } from '@plinth/machinery';
import { decodeKindText } from '../decode';
import { bodyToJson, readBody } from '../http/body';
import { writeAny } from '../output';
import { RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';

interface RequestedBoundObject {
  kind: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

interface TokenRequestBody {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: RequestedBoundObject };
}

const tokenRequestTarget = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', schema: tokenRequestSchema };
const tokenRequestKind = { group: 'authentication.platform.io', kind: 'TokenRequest' };

export async function createToken(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const signing = scope.server.serviceAccountTokens;
  if (!signing) throw serviceUnavailable('service account token signing is not configured');
  const raw = await readBody(scope.req);
  const body = (raw.length ? decodeKindText(bodyToJson(scope.req, raw), tokenRequestTarget) : {}) as TokenRequestBody;
  const { namespace, name } = scope.info;
  checkNamesMatch(body, namespace, name);
  const sa: KubeObject = await scope.store.get(namespace, name);
  const now = scope.server.clock.now();
  // kubectl's typed client names TokenRequest authentication.k8s.io/v1; answer in the group
  // the request body used (the k8s.io alias only when aliases are served).
  const apiVersion = body.apiVersion === 'authentication.k8s.io/v1' && scope.server.options.aliases ? 'authentication.k8s.io/v1' : 'authentication.platform.io/v1';
  const managedFields = requestManagedFields(scope, body, apiVersion, options.fieldManager, now);
  const requestedRef = body.spec?.boundObjectRef;
  checkTokenRequest(body.spec?.expirationSeconds, requestedRef);
  const boundObject = requestedRef ? await resolveBoundObject(scope, name, requestedRef) : undefined;
  const issued = issueServiceAccountToken({
    namespace,
    name,
    uid: sa.metadata.uid ?? '',
    audiences: body.spec?.audiences,
    expirationSeconds: body.spec?.expirationSeconds,
    boundObject,
    issuer: signing.issuer,
    privateKey: signing.privateKey,
    apiAudiences: signing.apiAudiences,
    now,
  });
  scope.response.warnings.push(...issued.warnings);
  writeAny(scope, 201, {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { name, namespace, creationTimestamp: rfc3339(now), managedFields },
    spec: {
      audiences: issued.audiences,
      expirationSeconds: issued.expirationSeconds,
      boundObjectRef: requestedRef ?? null,
    },
    // TokenREST takes no dryRun: a dry run is issued a token all the same, as kube-apiserver does.
    status: { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
  });
}

// checkNamesMatch refuses a body of another namespace, as the create handler does for any body
// (400), and one whose name is not the service account's, as TokenREST does (422).
function checkNamesMatch(body: TokenRequestBody, namespace: string, name: string): void {
  const meta = body.metadata ?? {};
  if (meta.namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (meta.name && meta.name !== name) {
    throw invalid(tokenRequestKind, name, [field.invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
  }
}

// requestManagedFields are what kube-apiserver records for the request as sent, after its scheme
// defaults (expirationSeconds) and before the REST fills the audiences in: each field of the spec
// the client set, boundObjectRef by its members alone (as kube-apiserver 1.28 answers).
function requestManagedFields(scope: RequestScope, body: TokenRequestBody, apiVersion: string, requestedManager: string, now: number): ManagedFieldsEntry[] {
  const spec: Record<string, unknown> = { ...body.spec, expirationSeconds: body.spec?.expirationSeconds ?? DefaultTokenExpirationSeconds };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(spec)) {
    if (value === undefined) continue;
    const members = name === 'boundObjectRef' && value !== null && typeof value === 'object' ? Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined) : [];
    fields[`f:${name}`] = Object.fromEntries(members.sort().map((k) => [`f:${k}`, {}]));
  }
  const sorted = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const manager = fieldManagerName(requestedManager, String(scope.req.headers['user-agent'] ?? ''));
  return [{ manager: manager || 'unknown', operation: 'Update', apiVersion, time: rfc3339(now), fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': sorted }, subresource: 'token' }];
}

// resolveBoundObject reads the object a token is bound to: it must exist, run as the service
// account (a Pod), and have the uid the reference names, if it names one.
async function resolveBoundObject(scope: RequestScope, serviceAccount: string, ref: RequestedBoundObject): Promise<BoundObjectRef> {
  // The store's key function refuses a Get without a name.
  if (!ref.name) throw badRequest('Name parameter required.');
  const resource = ref.kind === 'Pod' ? 'pods' : 'secrets';
  const def = scope.server.catalog.lookup('', 'v1', resource);
  if (!def) throw notFound({ group: '', resource }, ref.name);
  const object = await scope.server.storeFor(def).get(scope.info.namespace, ref.name);
  const spec = (object as { spec?: { serviceAccountName?: string } }).spec;
  if (ref.kind === 'Pod' && spec?.serviceAccountName !== serviceAccount) {
    throw badRequest(`cannot bind token for serviceaccount "${serviceAccount}" to pod running with different serviceaccount name.`);
  }
  const uid = object.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw conflict({ group: '', resource: ref.kind }, ref.name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return { ...ref, name: ref.name, uid };
}
