// serveAuthorizer answers the authorization questions of gateways over NATS request/reply, in
// the queue group every authz replica shares, and publishPolicyChanged tells gateways when the
// policy behind the answers changed so they drop the decisions they cached.
import { Msg, NatsConnection, Subscription } from 'nats';
import { Clock, realClock, Timer } from '@plinth/machinery';
import { SpanKind, withSpan } from '@plinth/telemetry';
import { Authorizer } from '@plinth/rbac';
import {
  decodeAuthorizeRequest,
  decodeRulesReviewRequest,
  encode,
  PolicyChanged,
  protocolVersion,
  queueGroup,
  Reply,
  subjectsFor,
  decodeRbacWriteRequest,
  RbacWriteResult,
} from './protocol';
import { contextOf, Operation, spanAttributes, spanNames } from './tracing';

export interface ServeAuthorizerOptions {
  // subjectPrefix roots the subjects (plinth.authz when absent).
  subjectPrefix?: string;
  // queue is the queue group (plinth-authz when absent).
  queue?: string;
  // onError hears about replies that could not be sent.
  onError?: (err: unknown) => void;
}

export interface AuthorizerService {
  // stop unsubscribes and resolves once the requests already received are answered.
  stop(): Promise<void>;
}

export async function serveAuthorizer(nc: NatsConnection, authorizer: Authorizer, options: ServeAuthorizerOptions = {}): Promise<AuthorizerService> {
  const subjects = subjectsFor(options.subjectPrefix);
  const queue = options.queue ?? queueGroup;
  const onError = options.onError ?? (() => undefined);
  const inFlight = new Set<Promise<void>>();

  const serve = (subject: string, operation: Operation, answer: (data: Uint8Array) => Promise<unknown>): Subscription =>
    nc.subscribe(subject, {
      queue,
      callback: (err, msg) => {
        if (err) return onError(err);
        const done = respond(msg, operation, subject, answer, onError).finally(() => inFlight.delete(done));
        inFlight.add(done);
      },
    });

  const subscriptions = [
    serve(subjects.authorize, 'Authorize', (data) => authorizer.authorize(decodeAuthorizeRequest(data).attributes)),
    serve(subjects.rules, 'RulesReview', (data) => {
      const request = decodeRulesReviewRequest(data);
      return authorizer.rulesReview(request.user, request.namespace);
    }),
    serve(subjects.rbacWrite, 'RbacWrite', async (data): Promise<RbacWriteResult> => {
      const r = decodeRbacWriteRequest(data);
      const refused = await authorizer.checkRbacWrite(r.kind, r.user, r.object, r.old, r.namespace, r.requestName);
      return refused ? refused.errStatus : null;
    }),
  ];
  // flush returns once the server has the subscriptions: requests sent after this get answers.
  await nc.flush();

  return {
    async stop() {
      await Promise.all(subscriptions.map((s) => (s.isClosed() ? undefined : s.drain())));
      await Promise.all([...inFlight]);
    },
  };
}

// respond answers one request in a server span that continues the caller's trace; a failure
// of the authorizer, or a request it cannot read, is answered as an error reply.
async function respond(msg: Msg, operation: Operation, subject: string, answer: (data: Uint8Array) => Promise<unknown>, onError: (err: unknown) => void): Promise<void> {
  let reply: Reply<unknown>;
  try {
    const result = await withSpan(spanNames[operation], spanAttributes(subject), () => answer(msg.data), {
      kind: SpanKind.SERVER,
      parent: contextOf(msg.headers),
    });
    reply = { version: protocolVersion, result };
  } catch (err) {
    reply = { version: protocolVersion, error: { message: err instanceof Error ? err.message : String(err) } };
  }
  try {
    if (!msg.respond(encode(reply))) onError(new Error(`a request on ${subject} came without a reply subject`));
  } catch (err) {
    onError(err);
  }
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
