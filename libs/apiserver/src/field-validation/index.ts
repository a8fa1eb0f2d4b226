// Field validation (fieldValidation=Ignore|Warn|Strict): strict JSON decoding, unknown-field
// detection and pruning against a kind's schema, and the stage that combines them.
export { hasInexactNumber, JsonSyntaxError, nestingError, parseStrictJson, findDuplicates, keyOffsets } from './strict-json';
export type { DuplicateField, StrictParseResult, StrictParseOptions, NumberLiterals } from './strict-json';
export { unknownFields, prune } from './unknown-fields';
export { decodeGoTypes } from './go-types';
export { goTimeParseError, parseGoTime } from './go-time';
export type { GoTime, GoTimeLayout } from './go-time';
export {
  FieldValidation,
  StrictDecodingError,
  TypeDecodeError,
  BodyDecodeError,
  parseFieldValidation,
  applyFieldValidation,
  decodeErrorStatus,
  unrecognizedBody,
  strictErrorWarnings,
} from './field-validation';
export type { OptionsKind, DataKind, GroupVersionKind, FieldValidationResult } from './field-validation';
