import { parseStrictJson } from '../field-validation';
import { tokenizeLiterals } from './patch-literals';

const roundTrip = (text: string, jsonPatch = false) => {
  const { value, literals } = parseStrictJson(text, { numberLiterals: true });
  const tokens = tokenizeLiterals(value, literals, jsonPatch);
  return tokens.restore(JSON.stringify(value));
};

describe('tokenizeLiterals', () => {
  it('gives inexact numbers their literal back in the JSON text', () => {
    expect(roundTrip('{"a":1e2,"b":[15.0,2],"c":{"d":9223372036854775808},"e":"1e2"}')).toBe('{"a":1e2,"b":[15.0,2],"c":{"d":9223372036854775808},"e":"1e2"}');
  });

  it('leaves strategic merge directives and JSON patch paths alone', () => {
    expect(roundTrip('{"$setElementOrder/x":[1.0],"x":[1.0]}')).toBe('{"$setElementOrder/x":[1],"x":[1.0]}');
    expect(roundTrip('[{"op":"test","path":"/a","value":1.0},{"op":"add","path":"/b","value":2.50},{"op":"remove","path":"/c","value":3.0}]', true)).toBe(
      '[{"op":"test","path":"/a","value":1.0},{"op":"add","path":"/b","value":2.50},{"op":"remove","path":"/c","value":3}]',
    );
  });

  it('never turns a string of the body into a number', () => {
    expect(roundTrip('{"a":"\\u0000x:1\\u0000","b":1.5}')).toBe('{"a":"\\u0000x:1\\u0000","b":1.5}');
  });
});
