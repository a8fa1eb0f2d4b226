// PatchError is the failure of a patch, already in the shape the apiserver answers with: a
// StatusError whose code, reason and message are those Kubernetes v1.28 sends for the same patch
// (k8s.io/apiserver/pkg/endpoints/handlers/patch.go). Each patch format's file lists its cases.
import { errors, Status, StatusError, StatusReason } from '@plinth/machinery';

export class PatchError extends StatusError {
  // detail is the patch library's own account of the failure. Kubernetes drops it from the answer
  // when it answers with the generic 422 message, so it is for logs and tests only.
  constructor(
    status: Status,
    readonly detail: string,
  ) {
    super(status);
    this.name = 'PatchError';
  }

  get statusCode(): number {
    return this.code;
  }
}

// genericInvalidMessage is what errors.NewGenericServerResponse puts in a 422: it keeps none of
// the server message it is given.
export const genericInvalidMessage = 'the server rejected our request due to an error in our request';

// badRequest is errors.NewBadRequest: 400 BadRequest with the message as given.
export function badRequest(message: string): PatchError {
  return new PatchError(errors.badRequest(message).errStatus, message);
}

// requestEntityTooLarge is errors.NewRequestEntityTooLargeError: 413 with a fixed prefix.
export function requestEntityTooLarge(message: string): PatchError {
  return new PatchError(errors.requestEntityTooLarge(message).errStatus, message);
}

// unprocessable is errors.NewGenericServerResponse(422, "", GroupResource{}, "", detail, 0,
// false): reason Invalid, the generic message and empty details.
export function unprocessable(detail: string): PatchError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: genericInvalidMessage,
    reason: StatusReason.Invalid,
    details: {},
    code: 422,
  };
  return new PatchError(status, detail);
}

// internalFailure is what responsewriters.ErrorToAPIStatus makes of a plain Go error: 500 with
// reason Unknown (left out of the JSON) and the error text as the message.
export function internalFailure(message: string): PatchError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
  return new PatchError(status, message);
}
