// Field errors: validation failures addressed by field path, with the types, constructors and
// message text of k8s.io/apimachinery/pkg/util/validation/field (v1.28).
import { formatGoValue, GoLiteral } from '../go/format';
import { goQuote } from '../go/strings';
import { aggregateMessage } from './aggregate';
import { FieldPath, pathString } from './field-path';

export { FieldPath, newPath, childPath, pathString } from './field-path';
export { GoLiteral } from '../go/format';

// FieldErrorType values are also the StatusCause reasons of an Invalid status.
export const FieldErrorType = {
  NotFound: 'FieldValueNotFound',
  Required: 'FieldValueRequired',
  Duplicate: 'FieldValueDuplicate',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  Internal: 'InternalError',
  TypeInvalid: 'FieldValueTypeInvalid',
} as const;
export type FieldErrorType = (typeof FieldErrorType)[keyof typeof FieldErrorType];

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

// omitValue marks a bad value that the message leaves out, as field.omitValue does.
export const omitValue: unknown = Object.freeze(new GoLiteral(''));

// withoutValue lists the types whose message never shows the bad value.
const withoutValue = new Set<FieldErrorType>([
  FieldErrorType.Required,
  FieldErrorType.Forbidden,
  FieldErrorType.TooLong,
  FieldErrorType.Internal,
]);

export class FieldError {
  constructor(
    readonly type: FieldErrorType,
    readonly field: string,
    readonly badValue: unknown,
    readonly detail: string,
  ) {}

  // errorBody is the message without the field name (the message of a StatusCause).
  errorBody(): string {
    let s = typeText[this.type];
    if (!withoutValue.has(this.type) && this.badValue !== omitValue) {
      s += `: ${formatGoValue(this.badValue)}`;
    }
    if (this.detail.length > 0) s += `: ${this.detail}`;
    return s;
  }

  toString(): string {
    return `${this.field}: ${this.errorBody()}`;
  }
}

export type FieldErrorList = FieldError[];
type PathLike = FieldPath | string | null | undefined;

export function typeInvalid(path: PathLike, value: unknown, detail: string): FieldError {
  return new FieldError(FieldErrorType.TypeInvalid, pathString(path), value, detail);
}

export function notFound(path: PathLike, value: unknown): FieldError {
  return new FieldError(FieldErrorType.NotFound, pathString(path), value, '');
}

export function required(path: PathLike, detail = ''): FieldError {
  return new FieldError(FieldErrorType.Required, pathString(path), '', detail);
}

export function duplicate(path: PathLike, value: unknown): FieldError {
  return new FieldError(FieldErrorType.Duplicate, pathString(path), value, '');
}

export function invalid(path: PathLike, value: unknown, detail: string): FieldError {
  return new FieldError(FieldErrorType.Invalid, pathString(path), value, detail);
}

// notSupported lists the valid values quoted, as `supported values: "a", "b"`.
export function notSupported(path: PathLike, value: unknown, validValues: readonly string[] = []): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return new FieldError(FieldErrorType.NotSupported, pathString(path), value, detail);
}

// validateEnum checks a field with a fixed set of values (an enum): NotSupported, listing them,
// when the value is not one of them.
export function validateEnum(path: PathLike, value: string, validValues: readonly string[]): FieldError[] {
  return validValues.includes(value) ? [] : [notSupported(path, value, validValues)];
}

// validateRequiredEnum is validateEnum for a field that must be set: an empty value is Required,
// naming the valid values as %q prints a []string.
export function validateRequiredEnum(path: PathLike, value: string, validValues: readonly string[]): FieldError[] {
  if (value === '') return [required(path, `valid values: [${validValues.map(goQuote).join(' ')}]`)];
  return validateEnum(path, value, validValues);
}

export function forbidden(path: PathLike, detail: string): FieldError {
  return new FieldError(FieldErrorType.Forbidden, pathString(path), '', detail);
}

export function tooLong(path: PathLike, value: unknown, maxLength: number): FieldError {
  return new FieldError(FieldErrorType.TooLong, pathString(path), value, `must have at most ${maxLength} bytes`);
}

export function tooLongMaxLength(path: PathLike, value: unknown, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be longer than ${maxLength}` : 'value is too long';
  return new FieldError(FieldErrorType.TooLong, pathString(path), value, detail);
}

export function tooMany(path: PathLike, actualQuantity: number, maxQuantity: number): FieldError {
  const detail = maxQuantity >= 0 ? `must have at most ${maxQuantity} items` : 'has too many items';
  const actual = actualQuantity >= 0 ? actualQuantity : omitValue;
  return new FieldError(FieldErrorType.TooMany, pathString(path), actual, detail);
}

export function internalError(path: PathLike, err: Error | string): FieldError {
  return new FieldError(FieldErrorType.Internal, pathString(path), null, typeof err === 'string' ? err : err.message);
}
export const internal = internalError;

// toAggregate is ErrorList.ToAggregate().Error(): duplicates (by message) removed, one message
// alone or several in brackets; undefined for an empty list.
export function toAggregate(list: readonly FieldError[]): string | undefined {
  return aggregateMessage([...new Set(list.map((e) => e.toString()))]);
}
