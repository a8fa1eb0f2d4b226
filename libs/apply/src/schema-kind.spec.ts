import { Schema } from '@plinth/api';
import { kindOf } from './schema-kind';

describe('kindOf', () => {
  it('answers the same kind for a schema each time, whatever the value', () => {
    const schema: Schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const first = kindOf(schema, { a: 'x' });
    expect(first).toEqual({ type: 'map', atomic: false, fields: schema.properties, required: ['a'], elements: undefined });
    expect(kindOf(schema, undefined)).toBe(first);
    expect(kindOf({ type: 'array', items: { type: 'string' }, listType: 'set' }, [])).toEqual({ type: 'list', atomic: false, keys: [], items: { type: 'string' } });
  });

  it('deduces the kind from the value, each time, where the schema declares none', () => {
    const untyped: Schema = {};
    expect(kindOf(untyped, { a: 1 })).toEqual({ type: 'map', atomic: false, fields: {}, required: [] });
    expect(kindOf(untyped, [1])).toEqual({ type: 'list', atomic: true, keys: [] });
    expect(kindOf(untyped, 'x')).toEqual({ type: 'scalar' });
    expect(kindOf(undefined, { a: 1 })).toEqual({ type: 'map', atomic: false, fields: {}, required: [] });
  });
});
