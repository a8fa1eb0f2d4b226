// Field validation (fieldValidation=Ignore|Warn|Strict): strict JSON decoding, unknown-field
// detection and pruning against a kind's schema, and the stage that combines them.
export { JsonSyntaxError, nestingError, parseStrictJson, findDuplicates, keyOffsets } from './strict-json';
export type { DuplicateField, StrictParseResult, StrictParseOptions } from './strict-json';
export { unknownFields, prune } from './unknown-fields';
export { goTypeError } from './go-types';
export {
  FieldValidation,
  StrictDecodingError,
  TypeDecodeError,
  BodyDecodeError,
  parseFieldValidation,
  applyFieldValidation,
  decodeErrorStatus,
} from './field-validation';
export type { OptionsKind, DataKind, GroupVersionKind, FieldValidationResult } from './field-validation';
