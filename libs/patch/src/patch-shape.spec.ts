import { patchShapeError } from './patch-shape';

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
