export { RbacPolicyCache, rbacKinds, RbacKind } from './policy-cache';
export { LocalAuthorizer } from './local-authorizer';
export { ensureBootstrapPolicy } from './bootstrap';
export { ClusterRoleAggregator } from './aggregation-controller';
export { LocalAuthorization } from './local-authorization';
