// NatsAuthorizer is the Authorizer of a remote authz service: the gateway asks it every
// question over NATS request/reply and keeps the decisions for a short while, dropping them
// all when the service publishes that the policy changed. A lost connection keeps them: a
// policy change missed meanwhile is bounded by their short lifetimes, exactly as a lost
// message is, and the gateway goes on answering the questions it knows through a short NATS
// outage.
//
// A question first waits a short while (firstAttemptMs), then is asked again within what is
// left of timeoutMs: a replica that died holding it never answers, and the queue group hands
// the second try to a replica still subscribed.
//
// system:masters is allowed without asking, as kube-apiserver's privileged-group authorizer
// allows it in process before any webhook: the cluster's administrators keep access while the
// authz service is down.
//
// A question that gets no answer fails with AuthorizerUnavailableError, which the API server
// answers with 500 "Internal error occurred: ...", as kube-apiserver answers a failing
// authorizer.
import { ErrorCode, MsgHdrs, NatsConnection, NatsError, Status, Subscription } from 'nats';
import { KubeObject } from '@plinth/api';
import { Clock, realClock, StatusError } from '@plinth/machinery';
import { Attributes, AuthorizationResult, Authorizer, SubjectRulesReviewStatus, SystemPrivilegedGroup, UserInfo } from '@plinth/rbac';
import { SpanKind, withSpan } from '@plinth/telemetry';
import { DecisionCache, decisionKey } from './decision-cache';
import { AuthzLinkMetrics } from './metrics';
import { AuthorizeRequest, decodeReply, encode, protocolVersion, RbacWriteRequest, RbacWriteResult, RulesReviewRequest, Subjects, subjectsFor } from './protocol';
import { headersWithContext, Operation, spanAttributes, spanNames } from './tracing';

export interface NatsAuthorizerOptions {
  subjectPrefix?: string;
  // timeoutMs bounds each question, retries included (5000 when absent).
  timeoutMs?: number;
  // firstAttemptMs bounds the first try of a question (1000 when absent).
  firstAttemptMs?: number;
  // allowedTtlMs and deniedTtlMs are how long decisions are kept (10 s and 1 s when absent);
  // 0 keeps none.
  allowedTtlMs?: number;
  deniedTtlMs?: number;
  // maxCachedDecisions bounds the cache (8192 when absent, as the webhook authorizer's).
  maxCachedDecisions?: number;
  clock?: Clock;
  // metrics, when given, count the decisions by source and time the questions.
  metrics?: AuthzLinkMetrics;
}

// AuthorizerUnavailableError is a question no authz replica answered: none is subscribed, the
// answer did not come in time, or the connection is closed.
export class AuthorizerUnavailableError extends Error {
  override name = 'AuthorizerUnavailableError';
}

export class NatsAuthorizer implements Authorizer {
  private readonly subjects: Subjects;
  private readonly timeoutMs: number;
  private readonly firstAttemptMs: number;
  private readonly clock: Clock;
  private readonly cache: DecisionCache;
  private readonly policyChanged: Subscription;
  private readonly status: AsyncIterable<Status> & { stop?: () => void };
  private readonly metrics?: AuthzLinkMetrics;

  constructor(
    private readonly nc: NatsConnection,
    options: NatsAuthorizerOptions = {},
  ) {
    this.subjects = subjectsFor(options.subjectPrefix);
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.firstAttemptMs = Math.min(options.firstAttemptMs ?? 1000, this.timeoutMs);
    this.clock = options.clock ?? realClock;
    this.metrics = options.metrics;
    this.cache = new DecisionCache({
      allowedTtlMs: options.allowedTtlMs ?? 10_000,
      deniedTtlMs: options.deniedTtlMs ?? 1_000,
      maxEntries: options.maxCachedDecisions ?? 8192,
      clock: this.clock,
    });
    this.policyChanged = nc.subscribe(this.subjects.policyChanged, { callback: () => this.cache.clear() });
    this.status = nc.status();
    void this.followConnection();
  }

  // ready resolves once the server has the policy-changed subscription.
  ready(): Promise<void> {
    return this.nc.flush();
  }

  // cachedDecisions is the number of decisions kept.
  get cachedDecisions(): number {
    return this.cache.size;
  }

  async authorize(attrs: Attributes): Promise<AuthorizationResult> {
    if (attrs.user.groups.includes(SystemPrivilegedGroup)) {
      this.metrics?.privileged.inc();
      return { decision: 'Allow', reason: '', evaluationError: '', resolutionErrors: [] };
    }
    const key = decisionKey(attrs);
    const cached = this.cache.get(key);
    if (cached) {
      this.metrics?.cached.inc();
      return cached;
    }
    this.metrics?.asked.inc();
    const generation = this.cache.generation;
    const request: AuthorizeRequest = { version: protocolVersion, attributes: attrs };
    const result = await this.request<AuthorizationResult>('Authorize', this.subjects.authorize, request);
    this.cache.set(key, result, generation);
    return result;
  }

  rulesReview(user: UserInfo, namespace: string): Promise<SubjectRulesReviewStatus> {
    const request: RulesReviewRequest = { version: protocolVersion, user, namespace };
    return this.request<SubjectRulesReviewStatus>('RulesReview', this.subjects.rules, request);
  }

  // checkRbacWrite asks the authz app for RBAC escalation prevention (never cached: it depends
  // on the object written).
  async checkRbacWrite(kind: string, user: UserInfo, object: KubeObject, old: KubeObject | null, namespace: string, requestName: string): Promise<StatusError | null> {
    if (user.groups.includes(SystemPrivilegedGroup)) return null;
    const request: RbacWriteRequest = { version: protocolVersion, kind, user, object, old, namespace, requestName };
    const status = await this.request<RbacWriteResult>('RbacWrite', this.subjects.rbacWrite, request);
    return status ? new StatusError(status) : null;
  }

  // close stops following policy changes; the connection stays open for its owner.
  close(): void {
    this.status.stop?.();
    if (!this.policyChanged.isClosed()) this.policyChanged.unsubscribe();
    this.cache.clear();
  }

  private request<T>(operation: Operation, subject: string, request: unknown): Promise<T> {
    return withSpan(
      spanNames[operation],
      spanAttributes(subject),
      async () => {
        const headers: MsgHdrs | undefined = headersWithContext();
        const data = encode(request);
        const started = performance.now();
        const deadline = this.clock.now() + this.timeoutMs;
        let attemptMs = this.firstAttemptMs;
        for (;;) {
          try {
            const reply = await this.nc.request(subject, data, { timeout: attemptMs, headers });
            const answer = decodeReply<T>(reply.data);
            this.metrics?.observe(operation, 'OK', (performance.now() - started) / 1000);
            return answer;
          } catch (err) {
            const left = deadline - this.clock.now();
            if (!(err instanceof NatsError && err.code === ErrorCode.Timeout) || left <= 0) {
              const failure = this.unavailable(subject, err);
              this.metrics?.observe(operation, failure instanceof AuthorizerUnavailableError ? 'Unavailable' : 'Error', (performance.now() - started) / 1000);
              throw failure;
            }
            attemptMs = left;
          }
        }
      },
      { kind: SpanKind.CLIENT },
    );
  }

  private unavailable(subject: string, err: unknown): Error {
    if (!(err instanceof NatsError)) return err instanceof Error ? err : new Error(String(err));
    switch (err.code) {
      case ErrorCode.NoResponders:
        return new AuthorizerUnavailableError(`no authorization service is answering on ${subject}`);
      case ErrorCode.Timeout:
        return new AuthorizerUnavailableError(`the authorization service did not answer on ${subject} within ${this.timeoutMs} ms`);
      case ErrorCode.ConnectionClosed:
      case ErrorCode.ConnectionDraining:
      case ErrorCode.Disconnect:
        return new AuthorizerUnavailableError(`the connection to the authorization service is closed (${subject})`);
      default:
        return new AuthorizerUnavailableError(`asking the authorization service on ${subject}: ${err.message}`);
    }
  }

  // followConnection keeps the decisions through a lost connection, but not the answers to
  // questions in flight while it was lost.
  private async followConnection(): Promise<void> {
    for await (const status of this.status) {
      if (status.type === 'disconnect' || status.type === 'reconnect') this.cache.forgetQuestionsInFlight();
    }
  }
}
