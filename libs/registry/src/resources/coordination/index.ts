export { leaseDefinition, leaseStrategy, validateLeaseSpec } from './leases';
