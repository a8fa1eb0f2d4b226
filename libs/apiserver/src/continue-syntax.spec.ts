import { continueSyntaxError } from './continue-syntax';

describe('continueSyntaxError', () => {
  it.each([
    ['garbage', "continue key is not valid: invalid character '\\u0081' looking for beginning of value"],
    ['abc', "continue key is not valid: invalid character 'i' looking for beginning of value"],
    ['a', 'continue key is not valid: illegal base64 data at input byte 0'],
    ['ab=c', 'continue key is not valid: illegal base64 data at input byte 2'],
    ['eyJ2Ijo', 'continue key is not valid: unexpected end of JSON input'],
    ['MQ', 'continue key is not valid: json: cannot unmarshal number into Go value of type storage.continueToken'],
  ])('words the token %s as kube-apiserver does', (token, message) => {
    expect(continueSyntaxError(token)).toBe(message);
  });

  it('leaves a JSON object to storage', () => {
    expect(continueSyntaxError(Buffer.from('{"v":"x"}').toString('base64url'))).toBeNull();
  });
});
