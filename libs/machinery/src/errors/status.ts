// Status errors: the metav1.Status failure body and the constructors of
// k8s.io/apimachinery/pkg/api/errors, with the same reasons, codes and message text.
import { goQuote } from '../go/strings';
import { FieldError, toAggregate } from './field';

export const StatusReason = {
  Unknown: '',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  AlreadyExists: 'AlreadyExists',
  Conflict: 'Conflict',
  Gone: 'Gone',
  Invalid: 'Invalid',
  ServerTimeout: 'ServerTimeout',
  StoreReadError: 'StorageReadError',
  Timeout: 'Timeout',
  TooManyRequests: 'TooManyRequests',
  BadRequest: 'BadRequest',
  MethodNotAllowed: 'MethodNotAllowed',
  NotAcceptable: 'NotAcceptable',
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  UnsupportedMediaType: 'UnsupportedMediaType',
  InternalError: 'InternalError',
  Expired: 'Expired',
  ServiceUnavailable: 'ServiceUnavailable',
} as const;
export type StatusReason = (typeof StatusReason)[keyof typeof StatusReason];

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

// Status is metav1.Status as served: kind Status, apiVersion v1, empty metadata.
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { selfLink?: string; resourceVersion?: string; continue?: string; remainingItemCount?: number };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

export interface GroupResource {
  group: string;
  resource: string;
}

export interface GroupKind {
  group: string;
  kind: string;
}

// groupResourceString is schema.GroupResource.String(): `jobs.batch`, or `pods` in the core group.
export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

// groupKindString is schema.GroupKind.String(): `Job.batch`, or `Pod` in the core group.
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

const brand = Symbol.for('plinth.machinery.StatusError');

// StatusError carries a failure Status; its message is the status message, as in Kubernetes.
export class StatusError extends Error {
  readonly [brand] = true;

  constructor(readonly errStatus: Status) {
    super(errStatus.message ?? '');
    this.name = 'StatusError';
  }

  get code(): number {
    return this.errStatus.code ?? 0;
  }

  get reason(): StatusReason {
    return this.errStatus.reason ?? StatusReason.Unknown;
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError || (typeof err === 'object' && err !== null && brand in err);
}

interface Failure {
  code: number;
  reason: StatusReason;
  message: string;
  details?: StatusDetails;
}

// compact drops the empty fields that Go's omitempty leaves out, keeping the wire key order.
function compact<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== '' && v !== 0 && !(Array.isArray(v) && v.length === 0)),
  ) as T;
}

function failure({ code, reason, message, details }: Failure): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message) status.message = message;
  if (reason) status.reason = reason;
  if (details) status.details = compact(details);
  status.code = code;
  return new StatusError(status);
}

function errorText(err: Error | string): string {
  return typeof err === 'string' ? err : err.message;
}

function resourceDetails(gr: GroupResource, name?: string): StatusDetails {
  return { name, group: gr.group, kind: gr.resource };
}

export function notFound(gr: GroupResource, name: string): StatusError {
  const message = `${groupResourceString(gr)} ${goQuote(name)} not found`;
  return failure({ code: 404, reason: StatusReason.NotFound, message, details: resourceDetails(gr, name) });
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  const message = `${groupResourceString(gr)} ${goQuote(name)} already exists`;
  return failure({ code: 409, reason: StatusReason.AlreadyExists, message, details: resourceDetails(gr, name) });
}

export function unauthorized(reason = ''): StatusError {
  return failure({ code: 401, reason: StatusReason.Unauthorized, message: reason || 'not authorized' });
}

export function forbidden(gr: GroupResource, name: string, err: Error | string): StatusError {
  const what = groupResourceString(gr);
  let message: string;
  if (!gr.group && !gr.resource) message = `forbidden: ${errorText(err)}`;
  else if (!name) message = `${what} is forbidden: ${errorText(err)}`;
  else message = `${what} ${goQuote(name)} is forbidden: ${errorText(err)}`;
  return failure({ code: 403, reason: StatusReason.Forbidden, message, details: resourceDetails(gr, name) });
}

export function conflict(gr: GroupResource, name: string, err: Error | string): StatusError {
  const message = `Operation cannot be fulfilled on ${groupResourceString(gr)} ${goQuote(name)}: ${errorText(err)}`;
  return failure({ code: 409, reason: StatusReason.Conflict, message, details: resourceDetails(gr, name) });
}

// applyConflict is NewApplyConflict: the causes name each conflicting field and its manager.
export function applyConflict(causes: StatusCause[], message: string): StatusError {
  return failure({ code: 409, reason: StatusReason.Conflict, message, details: { causes: causes.map(compact) } });
}

export function gone(message: string): StatusError {
  return failure({ code: 410, reason: StatusReason.Gone, message });
}

// resourceExpired is the 410 a watch or continue token gets once its revision is compacted.
export function resourceExpired(message: string): StatusError {
  return failure({ code: 410, reason: StatusReason.Expired, message });
}

// invalid is NewInvalid: 422 with one cause per field error and the aggregated message.
export function invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const causes = errs.map((e) => compact({ reason: e.type, message: e.errorBody(), field: e.field }));
  const aggregate = toAggregate(errs);
  let message = `${groupKindString(gk)} ${goQuote(name)} is invalid`;
  if (aggregate !== undefined) message += `: ${aggregate}`;
  return failure({ code: 422, reason: StatusReason.Invalid, message, details: { name, group: gk.group, kind: gk.kind, causes } });
}

export function badRequest(reason: string): StatusError {
  return failure({ code: 400, reason: StatusReason.BadRequest, message: reason });
}

// tooManyRequests is NewTooManyRequests (message as given, retry hint in details).
export function tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure({ code: 429, reason: StatusReason.TooManyRequests, message, details: { retryAfterSeconds } });
}

// tooManyRequestsError is NewTooManyRequestsError (`Too many requests: ...`, no details).
export function tooManyRequestsError(message: string): StatusError {
  return failure({ code: 429, reason: StatusReason.TooManyRequests, message: `Too many requests: ${message}` });
}

export function serviceUnavailable(reason: string): StatusError {
  return failure({ code: 503, reason: StatusReason.ServiceUnavailable, message: reason });
}

export function methodNotSupported(gr: GroupResource, action: string): StatusError {
  const message = `${action} is not supported on resources of kind ${goQuote(groupResourceString(gr))}`;
  return failure({ code: 405, reason: StatusReason.MethodNotAllowed, message, details: resourceDetails(gr) });
}

// methodNotAllowed is kube-apiserver's answer to a method no route of the path takes: go-restful's
// 405 through NewGenericServerResponse, with empty details.
export function methodNotAllowed(): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  status.message = 'the server does not allow this method on the requested resource';
  status.reason = StatusReason.MethodNotAllowed;
  status.details = {};
  status.code = 405;
  return new StatusError(status);
}

export function serverTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  const message = `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`;
  const details = { ...resourceDetails(gr, operation), retryAfterSeconds };
  return failure({ code: 500, reason: StatusReason.ServerTimeout, message, details });
}

export function internalError(err: Error | string): StatusError {
  const text = errorText(err);
  const message = `Internal error occurred: ${text}`;
  return failure({ code: 500, reason: StatusReason.InternalError, message, details: { causes: [{ message: text }] } });
}

// unclassifiedError is what apierrors.ErrorToAPIStatus makes of an error that is not a Status:
// a 500 with no reason and the error's own text (kube-apiserver answers etcd's refusals so).
export function unclassifiedError(message: string): StatusError {
  return failure({ code: 500, reason: StatusReason.Unknown, message });
}

// timeout is NewTimeoutError: 504, the request may still complete.
export function timeout(message: string, retryAfterSeconds: number): StatusError {
  return failure({ code: 504, reason: StatusReason.Timeout, message: `Timeout: ${message}`, details: { retryAfterSeconds } });
}

// tooLargeResourceVersion is storage.NewTooLargeResourceVersionError: the watch cache did not
// reach the revision a read asked for in time (the client retries after a second).
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  const message = `Timeout: Too large resource version: ${requested}, current: ${current}`;
  const details = { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 };
  return failure({ code: 504, reason: StatusReason.Timeout, message, details });
}

export function requestEntityTooLarge(message: string): StatusError {
  return failure({ code: 413, reason: StatusReason.RequestEntityTooLarge, message: `Request entity too large: ${message}` });
}

// notAcceptable is the apiserver's negotiation error for an Accept header it cannot serve.
export function notAcceptable(accepted: readonly string[]): StatusError {
  const message = `only the following media types are accepted: ${accepted.join(', ')}`;
  return failure({ code: 406, reason: StatusReason.NotAcceptable, message });
}

// unsupportedMediaType is the apiserver's negotiation error for a request body it cannot decode.
export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  const message = `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`;
  return failure({ code: 415, reason: StatusReason.UnsupportedMediaType, message });
}
