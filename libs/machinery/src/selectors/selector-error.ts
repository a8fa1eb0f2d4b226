import type { FieldError } from '../errors/field';

// SelectorError is a label or field selector that cannot be parsed or built; its message is the
// Kubernetes message, which the API server returns as a 400 BadRequest.
export class SelectorError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'SelectorError';
  }
}
