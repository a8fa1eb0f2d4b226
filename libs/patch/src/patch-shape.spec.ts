import { jsonPatchUnknownFields, patchShapeError } from './patch-shape';

describe('patchShapeError', () => {
  it('accepts a merge patch that is an object or null', () => {
    expect(patchShapeError('merge', { spec: { a: 1 } })).toBeUndefined();
    expect(patchShapeError('merge', null)).toBeUndefined();
  });

  it('refuses a merge patch of another kind, naming it as encoding/json does', () => {
    expect(patchShapeError('merge', [1, 2])).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(patchShapeError('merge', 'x')).toBe('json: cannot unmarshal string into Go value of type map[string]interface {}');
    expect(patchShapeError('merge', 3)).toBe('json: cannot unmarshal number into Go value of type map[string]interface {}');
    expect(patchShapeError('merge', true)).toBe('json: cannot unmarshal bool into Go value of type map[string]interface {}');
  });

  it('accepts a JSON patch that is a list (or null) of objects (or nulls)', () => {
    expect(patchShapeError('json', [{ op: 'add', path: '/a', value: 1 }, null, { op: null }])).toBeUndefined();
    expect(patchShapeError('json', null)).toBeUndefined();
  });

  it('refuses a JSON patch that is not a list', () => {
    expect(patchShapeError('json', { op: 'add' })).toBe('json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    expect(patchShapeError('json', 'add')).toBe('json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp');
  });

  it('refuses the first element or string field of the wrong kind', () => {
    expect(patchShapeError('json', [{ op: 'add' }, 7])).toBe('json: cannot unmarshal number into Go value of type handlers.jsonPatchOp');
    expect(patchShapeError('json', [{ path: ['x'], op: 1 }])).toBe('json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string');
    expect(patchShapeError('json', [{ op: 'add', from: {} }])).toBe('json: cannot unmarshal object into Go struct field jsonPatchOp.from of type string');
  });

  it('leaves value, and fields it does not know, to the rest of the handler', () => {
    expect(patchShapeError('json', [{ op: 'add', path: '/a', value: [1], extra: 2 }])).toBeUndefined();
  });
});

describe('jsonPatchUnknownFields', () => {
  it('names the members an operation does not declare, by index', () => {
    expect(jsonPatchUnknownFields([{ op: 'add', path: '/a', value: 1, from: '', extra: 2 }, null, { Op: 'x' }])).toEqual(['[0].extra', '[2].Op']);
    expect(jsonPatchUnknownFields({ op: 'add' })).toEqual([]);
  });
});
