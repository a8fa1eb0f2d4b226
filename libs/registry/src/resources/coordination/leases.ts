// Leases (coordination.platform.io/v1), after pkg/registry/coordination/lease: a PUT of a missing
// lease creates it, which leader election relies on, and a PUT must name the resourceVersion it
// replaces.
import { KubeObject, kindSchema, s } from '@plinth/api';
import { field, FieldError } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';

function spec(lease: KubeObject): Record<string, unknown> {
  return typeof lease.spec === 'object' && lease.spec !== null ? (lease.spec as Record<string, unknown>) : {};
}

// validateLeaseSpec is ValidateLeaseSpec, with Kubernetes 1.28's wording.
export function validateLeaseSpec(leaseSpec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const path = field.newPath('spec');
  const duration = leaseSpec.leaseDurationSeconds;
  if (typeof duration === 'number' && duration <= 0) errs.push(field.invalid(path.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  const transitions = leaseSpec.leaseTransitions;
  if (typeof transitions === 'number' && transitions < 0) {
    errs.push(field.invalid(path.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  return errs;
}

export const leaseStrategy: ResourceStrategy = {
  // defaults gives a Lease its spec, which Go's struct always encodes (`spec: {}`).
  defaults: (lease) => {
    if (typeof lease.spec !== 'object' || lease.spec === null) lease.spec = {};
  },
  validate: (lease) => validateLeaseSpec(spec(lease)),
};

const holderDescription = 'holderIdentity contains the identity of the holder of a current lease.';

export const leaseDefinition: ResourceDefinition = {
  group: 'coordination.platform.io',
  version: 'v1',
  resource: 'leases',
  singular: 'lease',
  kind: 'Lease',
  listKind: 'LeaseList',
  namespaced: true,
  verbs: objectVerbs,
  tracksGeneration: false,
  hasStatus: false,
  schema: kindSchema(
    {
      spec: s.object(
        {
          holderIdentity: s.string(holderDescription),
          leaseDurationSeconds: s.int32('leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it.'),
          acquireTime: { ...s.time('acquireTime is a time when the current lease was acquired.'), ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' },
          renewTime: { ...s.time('renewTime is a time when the current holder of a lease has last updated the lease.'), ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' },
          leaseTransitions: s.int32('leaseTransitions is the number of transitions of a lease between holders.'),
        },
        { ref: 'io.k8s.api.coordination.v1.LeaseSpec' },
      ),
    },
    'Lease defines a lease concept.',
    { ref: 'io.k8s.api.coordination.v1.Lease' },
  ),
  strategy: leaseStrategy,
  zeroValue: { spec: {} },
  table: {
    columns: [nameColumn, column('Holder', 'string', holderDescription), ageColumn],
    row: (lease, now) => [lease.metadata.name ?? '', typeof spec(lease).holderIdentity === 'string' ? spec(lease).holderIdentity : '', age(lease, now)],
  },
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  nameValidation: 'dns-subdomain',
};
