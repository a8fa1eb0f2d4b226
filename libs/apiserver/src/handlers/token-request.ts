// POST serviceaccounts/{name}/token (TokenRequest): a signed service-account JWT for an existing
// service account, with the audiences and expiry asked for (defaulted and capped as
// Kubernetes does).
import { KubeObject, tokenRequestSchema } from '@plinth/api';
import { issueServiceAccountToken } from '@plinth/authn';
import { serviceUnavailable } from '@plinth/machinery';
import { decodeKindText } from '../decode';
import { bodyToJson, readBody } from '../http/body';
import { writeAny } from '../output';
import { RequestScope } from '../scope';
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
  const body = (raw.length ? decodeKindText(bodyToJson(scope.req, raw), tokenRequestTarget) : {}) as TokenRequestBody;
  const sa: KubeObject = await scope.store.get(scope.info.namespace, scope.info.name);
  const issued = issueServiceAccountToken({
    namespace: scope.info.namespace,
    name: scope.info.name,
    uid: sa.metadata.uid ?? '',
    audiences: body.spec?.audiences,
    expirationSeconds: body.spec?.expirationSeconds,
    boundObject: body.spec?.boundObjectRef ? { ...body.spec.boundObjectRef, uid: body.spec.boundObjectRef.uid ?? '' } : undefined,
    issuer: signing.issuer,
    privateKey: signing.privateKey,
    apiAudiences: signing.apiAudiences,
    now: scope.server.clock.now(),
  });
  scope.response.warnings.push(...issued.warnings);
  // kubectl's typed client names TokenRequest authentication.k8s.io/v1; answer in the group
  // the request body used (the k8s.io alias only when aliases are served).
  const apiVersion = body.apiVersion === 'authentication.k8s.io/v1' && scope.server.options.aliases ? 'authentication.k8s.io/v1' : 'authentication.platform.io/v1';
  writeAny(scope, 201, {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { name: scope.info.name, namespace: scope.info.namespace, creationTimestamp: null },
    spec: {
      audiences: issued.audiences,
      expirationSeconds: issued.expirationSeconds,
      boundObjectRef: body.spec?.boundObjectRef ?? null,
    },
    status: options.dryRun ? { token: '', expirationTimestamp: issued.expirationTimestamp } : { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
  });
}
