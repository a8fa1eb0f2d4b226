// POST serviceaccounts/{name}/token (TokenRequest): a signed service-account JWT for an existing
// service account, with the audiences and expiry asked for (defaulted and capped as
// Kubernetes does).
import { KubeObject, tokenRequestSchema } from '@plinth/api';
import { issueServiceAccountToken, validateTokenRequest } from '@plinth/authn';
import { fromObject } from '@plinth/apply';
import { badRequest, conflict, goQuote, rfc3339, serviceUnavailable } from '@plinth/machinery';
import { decodeKindText } from '../decode';
import { bodyToJson, readBody } from '../http/body';
import { writeAny } from '../output';
import { fieldManagerOf, RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';

interface TokenRequestBody {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: { kind: string; apiVersion?: string; name: string; uid?: string } };
}

const tokenRequestTarget = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', schema: tokenRequestSchema };

export async function createToken(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const signing = scope.server.serviceAccountTokens;
  if (!signing) throw serviceUnavailable('service account token signing is not configured');
  const raw = await readBody(scope.req);
  const text = raw.length ? bodyToJson(scope.req, raw) : '';
  if (text) checkTokenRequestKind(text);
  const body = (text ? decodeKindText(text, tokenRequestTarget) : {}) as TokenRequestBody;
  const sa: KubeObject = await scope.store.get(scope.info.namespace, scope.info.name);
  const now = scope.server.clock.now();
  validateTokenRequest(body.spec?.expirationSeconds);
  const boundObjectRef = body.spec?.boundObjectRef;
  const boundUid = boundObjectRef ? await boundObjectUid(scope, boundObjectRef) : undefined;
  const issued = issueServiceAccountToken({
    namespace: scope.info.namespace,
    name: scope.info.name,
    uid: sa.metadata.uid ?? '',
    audiences: body.spec?.audiences,
    expirationSeconds: body.spec?.expirationSeconds,
    boundObject: boundObjectRef ? { ...boundObjectRef, uid: boundUid ?? boundObjectRef.uid ?? '' } : undefined,
    issuer: signing.issuer,
    privateKey: signing.privateKey,
    apiAudiences: signing.apiAudiences,
    now,
  });
  scope.response.warnings.push(...issued.warnings);
  // kubectl's typed client names TokenRequest authentication.k8s.io/v1; answer in the group
  // the request body used (the k8s.io alias only when aliases are served).
  const apiVersion = body.apiVersion === 'authentication.k8s.io/v1' && scope.server.options.aliases ? 'authentication.k8s.io/v1' : 'authentication.platform.io/v1';
  // The field manager records the fields the request set as decoded (expirationSeconds
  // defaulted, the audiences not yet), each as a leaf.
  const requested = { ...body.spec, expirationSeconds: body.spec?.expirationSeconds ?? defaultExpirationSeconds };
  const managedFields = [
    {
      manager: fieldManagerOf(scope, options.fieldManager).manager || 'unknown',
      operation: 'Update',
      apiVersion,
      time: rfc3339(now),
      fieldsType: 'FieldsV1',
      fieldsV1: fromObject({ spec: requested }, tokenRequestSchema).toFieldsV1(),
      subresource: 'token',
    },
  ];
  writeAny(scope, 201, {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { name: scope.info.name, namespace: scope.info.namespace, creationTimestamp: rfc3339(now), managedFields },
    spec: {
      audiences: issued.audiences,
      expirationSeconds: issued.expirationSeconds,
      boundObjectRef: body.spec?.boundObjectRef ?? null,
    },
    status: options.dryRun ? { token: '', expirationTimestamp: issued.expirationTimestamp } : { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
  });
}

// defaultExpirationSeconds is SetDefaults_TokenRequestSpec's expiry: an hour.
const defaultExpirationSeconds = 3600;

// checkTokenRequestKind refuses a body of another kind as the scheme's conversion does.
function checkTokenRequestKind(text: string): void {
  let typed: { apiVersion?: unknown; kind?: unknown };
  try {
    typed = JSON.parse(text) ?? {};
  } catch {
    return;
  }
  const kind = typeof typed.kind === 'string' ? typed.kind : '';
  if (kind === '' || kind === 'TokenRequest') return;
  const apiVersion = typeof typed.apiVersion === 'string' ? typed.apiVersion : '';
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  throw badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a TokenRequest: converting (${version}.${kind}) to (authentication.TokenRequest): unknown conversion`);
}

// boundObjectUid reads the object a token is bound to, as the token REST does for a Pod: it
// must exist, run as the service account, and carry the uid the reference names, if any.
// Plinth serves no Secrets to bind to; kinds other than Pod and Secret are refused.
async function boundObjectUid(scope: RequestScope, ref: NonNullable<NonNullable<TokenRequestBody['spec']>['boundObjectRef']>): Promise<string | undefined> {
  const group = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/')[0] : '';
  const pods = scope.server.catalog.lookup('', 'v1', 'pods');
  if (group !== '' || ref.kind !== 'Pod' || !pods) return undefined;
  const pod = await scope.server.storeFor(pods).get(scope.info.namespace, ref.name);
  const serviceAccountName = (pod.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName;
  if (serviceAccountName !== scope.info.name) {
    throw badRequest(`cannot bind token for serviceaccount ${goQuote(scope.info.name)} to pod running with different serviceaccount name.`);
  }
  const uid = pod.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw conflict({ group: '', resource: 'Pod' }, ref.name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return uid;
}
