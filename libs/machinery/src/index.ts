export { Clock, Timer, realClock } from './clock';
export { rfc3339 } from './time';

export { Backoff, BackoffOptions, LinkState, probeLink, retryUntilDone, RetryOptions, unwatchedLink } from './backoff';

// errors, field and validation mirror Kubernetes' package names (errors.notFound(...),
// field.required(...), validation.isQualifiedName(...)); errors and field share constructor names.
export * as errors from './errors';
export * as field from './errors/field';
export * as validation from './validation';

export * from './errors';
export { aggregateMessage } from './errors/aggregate';
export * from './validation';
export { FieldError, FieldErrorList, FieldErrorType, FieldPath, GoLiteral, newPath, childPath, pathString } from './errors/field';

export * from './selectors/labels';
export * from './selectors/label-selector';
export * from './selectors/fields';
export { goQuote, compareStrings } from './go/strings';
export { RequestUriError, RequestUriParts, splitRequestUri } from './go/request-uri';
export { semanticEqual } from './go/semantic';
export * from './protobuf';
export * from './user';
export { carryExactIntegers, cloneJson, exactInteger, holdsExactIntegers, isGoFloat, keepFloatLiteral, keepIntegerLiteral, markExactRoot, parseJsonExact, stringifyJson, withBigInts } from './go/exact-integers';
