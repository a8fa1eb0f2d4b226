// @plinth/rbac: RBAC as Kubernetes v1.28 evaluates it, as pure functions over an in-memory
// policy: rule matching, the authorizer, the rules review, aggregation, escalation checks and
// the bootstrap policy.
export * from './types';
export * from './attributes';
export * from './rule-matching';
export {
  RbacPolicy,
  PolicySnapshot,
  RuleResolver,
  RuleVisitor,
  RulesForResult,
  RoleReferenceResult,
  ErrorStyle,
  ObjectKey,
  PolicyContents,
  resolutionError,
} from './policy-store';
export * from './authorizer';
export type { Authorizer } from './authorizer-port';
export * from './aggregation';
export * from './escalation';
export { newRule, PolicyRuleBuilder } from './rule-builder';
export * from './controller-policy';
export * from './bootstrap-policy';
