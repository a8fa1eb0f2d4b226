// Reason predicates of k8s.io/apimachinery/pkg/api/errors: a status answers by its reason, or by
// its code when the reason is one this version does not know.
import { isStatusError, StatusReason } from './status';

const knownReasons = new Set<string>(Object.values(StatusReason).filter((r) => r !== StatusReason.Unknown));

// reasonForError is ReasonForError: the reason of a StatusError, Unknown for anything else.
export function reasonForError(err: unknown): StatusReason {
  return isStatusError(err) ? err.reason : StatusReason.Unknown;
}

function matches(err: unknown, reason: StatusReason, code?: number): boolean {
  if (!isStatusError(err)) return false;
  if (err.reason === reason) return true;
  return code !== undefined && !knownReasons.has(err.reason) && err.code === code;
}

export const isNotFound = (err: unknown) => matches(err, StatusReason.NotFound, 404);
export const isAlreadyExists = (err: unknown) => matches(err, StatusReason.AlreadyExists);
export const isConflict = (err: unknown) => matches(err, StatusReason.Conflict, 409);
export const isInvalid = (err: unknown) => matches(err, StatusReason.Invalid, 422);
export const isGone = (err: unknown) => matches(err, StatusReason.Gone, 410);
export const isResourceExpired = (err: unknown) => matches(err, StatusReason.Expired);
export const isNotAcceptable = (err: unknown) => matches(err, StatusReason.NotAcceptable, 406);
export const isUnsupportedMediaType = (err: unknown) => matches(err, StatusReason.UnsupportedMediaType, 415);
export const isMethodNotSupported = (err: unknown) => matches(err, StatusReason.MethodNotAllowed, 405);
export const isServiceUnavailable = (err: unknown) => matches(err, StatusReason.ServiceUnavailable, 503);
export const isBadRequest = (err: unknown) => matches(err, StatusReason.BadRequest, 400);
export const isUnauthorized = (err: unknown) => matches(err, StatusReason.Unauthorized, 401);
export const isForbidden = (err: unknown) => matches(err, StatusReason.Forbidden, 403);
export const isTimeout = (err: unknown) => matches(err, StatusReason.Timeout, 504);
export const isServerTimeout = (err: unknown) => matches(err, StatusReason.ServerTimeout);
export const isInternalError = (err: unknown) => matches(err, StatusReason.InternalError, 500);
export const isTooManyRequests = (err: unknown) => matches(err, StatusReason.TooManyRequests, 429);
export const isRequestEntityTooLarge = (err: unknown) => matches(err, StatusReason.RequestEntityTooLarge, 413);
