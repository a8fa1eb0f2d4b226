import { jsonPatchUnknownFields, patchShapeError } from './patch-shape';

describe('patchShapeError', () => {
  it('refuses a JSON patch that is not a list of operation objects', () => {
    expect(patchShapeError('json', { op: 'add' })).toBe('error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    expect(patchShapeError('json', [{ op: 'add' }, 5])).toBe('error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp');
    expect(patchShapeError('json', [{ op: 'add' }, null])).toBeNull();
  });

  it('refuses a merge patch that is not an object', () => {
    expect(patchShapeError('merge', [1])).toBe('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(patchShapeError('merge', 'x')).toBe('error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}');
    expect(patchShapeError('merge', { a: 1 })).toBeNull();
    expect(patchShapeError('merge', null)).toBeNull();
  });
});

describe('jsonPatchUnknownFields', () => {
  it('names the members an operation does not declare, by index', () => {
    expect(jsonPatchUnknownFields([{ op: 'add', path: '/a', value: 1, from: '', extra: 2 }, null, { Op: 'x' }])).toEqual(['[0].extra', '[2].Op']);
    expect(jsonPatchUnknownFields({ op: 'add' })).toEqual([]);
  });
});
