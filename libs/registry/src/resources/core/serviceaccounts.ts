// ServiceAccounts (v1), after pkg/registry/core/serviceaccount: secret references keep only
// their names; the token subresource issues TokenRequests.
import { kindSchema, localObjectReferenceSchema, objectReferenceSchema, s } from '@plinth/api';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';
import { Obj, objects } from './validation-helpers';

// cleanSecretReferences keeps only the name of each secret reference, as the strategy does.
function cleanSecretReferences(sa: Obj): void {
  if (Array.isArray(sa.secrets)) sa.secrets = objects(sa.secrets).map((ref) => (ref.name === undefined ? {} : { name: ref.name }));
}

export const serviceAccountStrategy: ResourceStrategy = {
  prepareForCreate: (sa) => cleanSecretReferences(sa),
  prepareForUpdate: (sa) => cleanSecretReferences(sa),
  validate: () => [],
};

const secretsDescription =
  'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret';

export const serviceAccountDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  namespaced: true,
  shortNames: ['sa'],
  verbs: objectVerbs,
  subresources: ['token'],
  tracksGeneration: false,
  hasStatus: false,
  schema: kindSchema(
    {
      secrets: s.array(objectReferenceSchema, { patchMergeKey: 'name', patchStrategy: 'merge', description: secretsDescription }),
      imagePullSecrets: s.array(localObjectReferenceSchema),
      automountServiceAccountToken: s.bool('AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.'),
    },
    'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
    { ref: 'io.k8s.api.core.v1.ServiceAccount' },
  ),
  strategy: serviceAccountStrategy,
  table: {
    columns: [nameColumn, column('Secrets', 'string', secretsDescription), ageColumn],
    row: (sa, now) => [sa.metadata.name ?? '', objects(sa.secrets).length, age(sa, now)],
  },
  deleteReturnsObject: true,
  nameValidation: 'dns-subdomain',
};
