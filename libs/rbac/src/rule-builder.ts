// newRule is rbacv1helpers.NewRule, the builder the bootstrap policy is written with: every list
// is a sorted set, so the rules read as Kubernetes serves them.
import { sortedSet } from './go';
import { PolicyRule } from './types';

export class PolicyRuleBuilder {
  private groupSet: string[] = [];
  private resourceSet: string[] = [];
  private nameSet: string[] = [];
  private urlSet: string[] = [];

  constructor(private readonly verbs: string[]) {}

  groups(...groups: string[]): this {
    this.groupSet = sortedSet([...this.groupSet, ...groups]);
    return this;
  }

  resources(...resources: string[]): this {
    this.resourceSet = sortedSet([...this.resourceSet, ...resources]);
    return this;
  }

  names(...names: string[]): this {
    this.nameSet = sortedSet([...this.nameSet, ...names]);
    return this;
  }

  urls(...urls: string[]): this {
    this.urlSet = sortedSet([...this.urlSet, ...urls]);
    return this;
  }

  // rule is RuleOrDie: a resource rule needs groups, and a rule is either for resources or for
  // non-resource URLs.
  rule(): PolicyRule {
    if (this.verbs.length === 0) throw new Error('verbs are required');
    const out: PolicyRule = { verbs: [...this.verbs] };
    if (this.urlSet.length > 0) {
      if (this.groupSet.length + this.resourceSet.length + this.nameSet.length > 0) {
        throw new Error('non-resource rule may not have apiGroups, resources, or resourceNames');
      }
      out.nonResourceURLs = [...this.urlSet];
      return out;
    }
    if (this.resourceSet.length === 0) throw new Error('a rule must have either nonResourceURLs or resources');
    if (this.groupSet.length === 0) throw new Error('resource rule must have apiGroups');
    out.apiGroups = [...this.groupSet];
    out.resources = [...this.resourceSet];
    if (this.nameSet.length > 0) out.resourceNames = [...this.nameSet];
    return out;
  }
}

export function newRule(...verbs: string[]): PolicyRuleBuilder {
  return new PolicyRuleBuilder(sortedSet(verbs));
}
