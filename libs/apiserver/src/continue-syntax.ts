// continueSyntaxError words what kube-apiserver's storage.DecodeContinue says of a continue
// token that is not base64url (RawURLEncoding) of JSON: encoding/base64's and encoding/json's
// errors (and a value that is no object), behind "continue key is not valid: ". The token's content (version, revision, start
// key) is storage's to check.
import { goQuote } from '@plinth/machinery';
import { parseStrictJson } from './field-validation/strict-json';

const genericInvalidKey = 'continue key is not valid';

export function continueSyntaxError(token: string): string | null {
  const bytes = decodeRawBase64Url(token);
  if (typeof bytes === 'string') return `${genericInvalidKey}: ${bytes}`;
  const jsonError = jsonSyntaxError(bytes);
  return jsonError === null ? null : `${genericInvalidKey}: ${jsonError}`;
}

// decodeRawBase64Url decodes as Go's base64.RawURLEncoding does, or answers its error.
function decodeRawBase64Url(token: string): Buffer | string {
  const text = token.replace(/[\r\n]/g, '');
  const bad = text.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  if (text.length % 4 === 1) return `illegal base64 data at input byte ${text.length - 1}`;
  return Buffer.from(text, 'base64url');
}

// jsonSyntaxError is encoding/json's syntax error for the bytes, or null when they are JSON. A
// byte that cannot start a value is named as Go names it: the byte read as a rune.
function jsonSyntaxError(bytes: Buffer): string | null {
  let start = 0;
  while (start < bytes.length && isJsonSpace(bytes[start])) start++;
  if (start < bytes.length && !'{["-0123456789tfn'.includes(String.fromCharCode(bytes[start]))) {
    return `invalid character ${quoteByte(bytes[start])} looking for beginning of value`;
  }
  let value: unknown;
  try {
    value = parseStrictJson(bytes.toString('utf8'), { duplicates: false }).value;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return null;
  return `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value} into Go value of type storage.continueToken`;
}

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function quoteByte(byte: number): string {
  if (byte === 0x27) return `'\\''`;
  if (byte === 0x22) return `'"'`;
  return `'${goQuote(String.fromCharCode(byte)).slice(1, -1)}'`;
}
