// decode reads a parsed YAML value against a schema, as Kubernetes' strict decoding does: a field
// the type does not have is reported by its dotted path (`unknown field "JobController.Foo"`), a
// value of the wrong type as an Invalid field error. Absent and null fields stay absent, as null
// leaves a Go field at its zero value.
import { field, FieldError, FieldErrorType, FieldPath, newPath } from '@plinth/machinery';
import { canonicalDuration, DurationError } from './duration';
import { Schema } from './schema';

// UnknownFieldError prints as strict decoding prints an unknown field.
export class UnknownFieldError extends FieldError {
  constructor(path: string) {
    super(FieldErrorType.NotSupported, path, path, 'unknown field');
  }

  override toString(): string {
    return `unknown field ${JSON.stringify(this.field)}`;
  }
}

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;

export function child(parent: FieldPath | undefined, name: string): FieldPath {
  return parent ? parent.child(name) : newPath(name);
}

export function decode(value: unknown, schema: Schema, path: FieldPath | undefined, errs: FieldError[]): unknown {
  const at = path ?? '';
  switch (schema.kind) {
    case 'int32':
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        errs.push(field.invalid(at, value, 'must be an integer'));
        return undefined;
      }
      if (value < int32Min || value > int32Max) {
        errs.push(field.invalid(at, value, 'must be a 32-bit integer'));
        return undefined;
      }
      return value;
    case 'float':
      if (typeof value !== 'number') {
        errs.push(field.invalid(at, value, 'must be a number'));
        return undefined;
      }
      return value;
    case 'string':
      if (typeof value !== 'string') {
        errs.push(field.invalid(at, value, 'must be a string'));
        return undefined;
      }
      return value;
    case 'bool':
      if (typeof value !== 'boolean') {
        errs.push(field.invalid(at, value, 'must be a boolean'));
        return undefined;
      }
      return value;
    case 'duration':
      if (typeof value !== 'string') {
        errs.push(field.invalid(at, value, 'must be a duration string such as "5m0s"'));
        return undefined;
      }
      try {
        return canonicalDuration(value);
      } catch (e) {
        if (!(e instanceof DurationError)) throw e;
        errs.push(field.invalid(at, value, e.message));
        return undefined;
      }
    case 'list':
      if (!Array.isArray(value)) {
        errs.push(field.invalid(at, value, 'must be a list'));
        return undefined;
      }
      return value.map((item, i) => (item === null ? undefined : decode(item, schema.of, (path ?? newPath('')).index(i), errs)));
    case 'struct': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        errs.push(field.invalid(at, value, 'must be an object'));
        return undefined;
      }
      const out: Record<string, unknown> = {};
      for (const [name, v] of Object.entries(value)) {
        const p = child(path, name);
        const fieldSchema = Object.hasOwn(schema.fields, name) ? schema.fields[name] : undefined;
        if (!fieldSchema) {
          errs.push(new UnknownFieldError(p.toString()));
          continue;
        }
        if (v === null || v === undefined) continue;
        const decoded = decode(v, fieldSchema, p, errs);
        if (decoded !== undefined) out[name] = decoded;
      }
      return out;
    }
  }
}
