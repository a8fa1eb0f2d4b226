// DecisionCache keeps authorization decisions for a while, as the webhook authorizer of
// kube-apiserver does (--authorization-webhook-cache-authorized-ttl and -unauthorized-ttl):
// allowed decisions longer than the others, keyed by every attribute of the question, user
// name, uid, groups and extra included. Kubernetes keeps them 5 min and 30 s because nothing
// tells it that the policy changed; here the authz service says so and the cache is cleared,
// so short lifetimes only bound what a lost message could leave behind.
//
// The generation closes the race between a question in flight and a policy change: a decision
// is stored only if no clear happened since the question was asked.
import { Clock } from '@plinth/machinery';
import { Attributes, AuthorizationResult } from '@plinth/rbac';

export interface DecisionCacheOptions {
  // allowedTtlMs is how long an Allow is kept; 0 keeps none.
  allowedTtlMs: number;
  // deniedTtlMs is how long any other decision is kept; 0 keeps none.
  deniedTtlMs: number;
  // maxEntries bounds the cache; the oldest entries go first.
  maxEntries: number;
  clock: Clock;
}

interface Entry {
  result: AuthorizationResult;
  expires: number;
}

export class DecisionCache {
  private readonly entries = new Map<string, Entry>();
  private gen = 0;

  constructor(private readonly options: DecisionCacheOptions) {}

  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): AuthorizationResult | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.options.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  // set stores a decision asked at the given generation, unless the cache was cleared since.
  set(key: string, result: AuthorizationResult, askedAt: number): void {
    if (askedAt !== this.gen) return;
    const ttl = result.decision === 'Allow' ? this.options.allowedTtlMs : this.options.deniedTtlMs;
    if (ttl <= 0) return;
    // The decision is frozen: every caller asking the same question shares it.
    Object.freeze(result.resolutionErrors);
    Object.freeze(result);
    this.entries.delete(key);
    this.entries.set(key, { result, expires: this.options.clock.now() + ttl });
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }

  // forgetQuestionsInFlight keeps the decisions but refuses the answers to questions asked
  // before now.
  forgetQuestionsInFlight(): void {
    this.gen++;
  }
}

// decisionKey names a question by all its attributes. Groups keep their order (the webhook's
// key is the serialized SubjectAccessReview spec, which keeps it too); extra is sorted by key,
// since its order carries no meaning.
export function decisionKey(attrs: Attributes): string {
  const { user } = attrs;
  const extra = Object.keys(user.extra)
    .sort()
    .map((k) => [k, user.extra[k]]);
  return JSON.stringify([
    user.name,
    user.uid,
    user.groups,
    extra,
    attrs.verb,
    attrs.namespace,
    attrs.apiGroup,
    attrs.apiVersion,
    attrs.resource,
    attrs.subresource,
    attrs.name,
    attrs.isResourceRequest,
    attrs.path,
  ]);
}
