// applyDefaults fills what a decoded document leaves unset: each field takes its schema default
// when it holds Go's zero value (or, for a *bool, when it is absent), and its zero value otherwise.
import { canonicalDuration } from './duration';
import { Schema } from './schema';

export function applyDefaults(value: unknown, schema: Schema): unknown {
  switch (schema.kind) {
    case 'int32':
      if (typeof value !== 'number' || value === 0 || (schema.defaultIfNonPositive && value < 0)) {
        return schema.default ?? 0;
      }
      return value;
    case 'float':
      return typeof value === 'number' && value !== 0 ? value : (schema.default ?? 0);
    case 'string':
      return typeof value === 'string' && value !== '' ? value : (schema.default ?? '');
    case 'bool':
      return typeof value === 'boolean' ? value : (schema.default ?? false);
    case 'duration':
      if (typeof value === 'string' && value !== '0s') return value;
      return canonicalDuration(schema.default ?? '0s');
    case 'list': {
      const items = Array.isArray(value) ? value : [];
      if (items.length === 0) return [...(schema.default ?? [])];
      return items.map((item) => applyDefaults(item, schema.of));
    }
    case 'struct': {
      const given = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, fieldSchema] of Object.entries(schema.fields)) {
        // TypeMeta is copied as given, never invented.
        if (name === 'apiVersion' || name === 'kind') {
          if (given[name] !== undefined) out[name] = given[name];
          continue;
        }
        out[name] = applyDefaults(given[name], fieldSchema);
      }
      return out;
    }
  }
}
