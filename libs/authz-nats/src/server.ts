// The authz service's side of the NATS contract, without the transport: authorizerAnswers
// answers the requests of gateways from an Authorizer, each in a server span that continues
// the caller's trace, encodeReply writes the reply (the result, or the error the answer
// failed with), and publishPolicyChanged tells gateways when the policy behind the answers
// changed so they drop the decisions they cached. The authz app's Nest microservice
// (libs/nest/src/authz) routes the subjects to the answers.
import { MsgHdrs, NatsConnection } from 'nats';
import { Clock, realClock, Timer } from '@plinth/machinery';
import { SpanKind, withSpan } from '@plinth/telemetry';
import { Authorizer } from '@plinth/rbac';
import {
  decodeAuthorizeRequest,
  decodeRulesReviewRequest,
  encode,
  PolicyChanged,
  protocolVersion,
  Reply,
  subjectsFor,
  decodeRbacWriteRequest,
  RbacWriteResult,
} from './protocol';
import { contextOf, Operation, spanAttributes, spanNames } from './tracing';

// Answer answers one request: its data, the subject it came on and its headers.
export type Answer = (data: Uint8Array, subject: string, headers: MsgHdrs | undefined) => Promise<unknown>;

export interface AuthorizerAnswers {
  authorize: Answer;
  rulesReview: Answer;
  rbacWrite: Answer;
}

export function authorizerAnswers(authorizer: Authorizer): AuthorizerAnswers {
  return {
    authorize: inServerSpan('Authorize', (data) => authorizer.authorize(decodeAuthorizeRequest(data).attributes)),
    rulesReview: inServerSpan('RulesReview', (data) => {
      const request = decodeRulesReviewRequest(data);
      return authorizer.rulesReview(request.user, request.namespace);
    }),
    rbacWrite: inServerSpan('RbacWrite', async (data): Promise<RbacWriteResult> => {
      const r = decodeRbacWriteRequest(data);
      const refused = await authorizer.checkRbacWrite(r.kind, r.user, r.object, r.old, r.namespace, r.requestName);
      return refused ? refused.errStatus : null;
    }),
  };
}

// inServerSpan answers in a server span that continues the caller's trace; a failure of the
// authorizer, or a request it cannot read, rejects.
function inServerSpan(operation: Operation, answer: (data: Uint8Array) => Promise<unknown>): Answer {
  return (data, subject, headers) => withSpan(spanNames[operation], spanAttributes(subject), () => answer(data), { kind: SpanKind.SERVER, parent: contextOf(headers) });
}

// encodeReply writes the reply to a request: its result, or the error its answer failed with.
export function encodeReply(outcome: { result: unknown } | { error: unknown }): Uint8Array {
  const reply: Reply<unknown> =
    'error' in outcome
      ? { version: protocolVersion, error: { message: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) } }
      : { version: protocolVersion, result: outcome.result };
  return encode(reply);
}

export interface PublishPolicyChangedOptions {
  subjectPrefix?: string;
  // debounceMs gathers the changes of this many milliseconds into one message (50 when
  // absent; 0 publishes every change at once). The first change of a burst is published at
  // most debounceMs late however long the burst lasts.
  debounceMs?: number;
  clock?: Clock;
  onError?: (err: unknown) => void;
}

export interface PolicyChangedPublisher {
  // changed notes that the policy changed.
  changed(): void;
  // stop cancels a pending message.
  stop(): void;
}

// publishPolicyChanged returns the publisher the authz app calls from RbacPolicyCache.onChange.
// Every replica publishes its own changes, so a gateway drops its cache again when the last
// replica has caught up.
export function publishPolicyChanged(nc: NatsConnection, options: PublishPolicyChangedOptions = {}): PolicyChangedPublisher {
  const subject = subjectsFor(options.subjectPrefix).policyChanged;
  const debounceMs = options.debounceMs ?? 50;
  const clock = options.clock ?? realClock;
  const onError = options.onError ?? (() => undefined);
  const message: PolicyChanged = { version: protocolVersion };
  let pending: Timer | null = null;
  let stopped = false;

  const publish = () => {
    pending = null;
    if (stopped || nc.isClosed()) return;
    try {
      nc.publish(subject, encode(message));
    } catch (err) {
      onError(err);
    }
  };

  return {
    changed() {
      if (stopped) return;
      if (debounceMs <= 0) return publish();
      pending ??= clock.setTimeout(publish, debounceMs);
    },
    stop() {
      stopped = true;
      pending?.cancel();
      pending = null;
    },
  };
}
