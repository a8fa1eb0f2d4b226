// The request-target as Go's net/http reads it (url.ParseRequestURI), which is what
// kube-apiserver routes on: the path percent-decoded but otherwise as sent (no dot segments
// resolved, no slashes merged, no backslashes turned around), so `/api/v1/namespaces/%2e%2e/pods`
// names the namespace "..", never the pods of every namespace. A target Go refuses is a
// RequestTargetError, which the server answers as Go's server does (400 Bad Request).

export interface RequestTarget {
  // path is the decoded path (Go's URL.Path); "" for CONNECT's host:port form.
  path: string;
  // rawQuery is the text after the first "?", undecoded (Go's URL.RawQuery).
  rawQuery: string;
}

export class RequestTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestTargetError';
  }
}

// escapedOrBeyondAscii marks a path that needs decoding; most paths go through untouched.
const escapedOrBeyondAscii = /[%\u0080-\uffff]/;
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;

// parseRequestTarget reads the request-target of a request with the given method. Node hands
// over the target as it came, one character per byte.
export function parseRequestTarget(method: string, target: string): RequestTarget {
  if (target === '') throw new RequestTargetError('empty url');
  if (containsControlByte(target)) throw new RequestTargetError('net/url: invalid control character in URL');
  if (target === '*') return { path: '*', rawQuery: '' };
  // CONNECT's authority form (host:port) is read as http://host:port, as Go's readRequest does.
  const absolute = method === 'CONNECT' && !target.startsWith('/') ? `http://${target}` : target;
  let rest = absolute;
  let hasScheme = false;
  const schemeMatch = scheme.exec(rest);
  if (schemeMatch) {
    hasScheme = true;
    rest = rest.slice(schemeMatch[0].length);
  }
  let rawQuery = '';
  const question = rest.indexOf('?');
  if (question >= 0) {
    rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  if (!rest.startsWith('/')) {
    // An opaque URL (scheme:opaque) has no path; without a scheme Go refuses it.
    if (hasScheme) return { path: '', rawQuery };
    throw new RequestTargetError('invalid URI for request');
  }
  if (hasScheme && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  return { path: unescapePath(rest), rawQuery };
}

// unescapePath is Go's url.PathUnescape: every "%" starts two hex digits, "+" stays "+", and the
// bytes are read as UTF-8.
export function unescapePath(raw: string): string {
  if (!escapedOrBeyondAscii.test(raw)) return raw;
  const bytes = Buffer.from(raw, 'latin1');
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; ) {
    if (bytes[i] !== 0x25) {
      out[n++] = bytes[i++];
      continue;
    }
    const high = hexValue(bytes[i + 1]);
    const low = hexValue(bytes[i + 2]);
    if (high < 0 || low < 0) throw new RequestTargetError(`invalid URL escape "${bytes.subarray(i, i + 3).toString('latin1')}"`);
    out[n++] = high * 16 + low;
    i += 3;
  }
  return out.toString('utf8', 0, n);
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

// containsControlByte is Go's stringContainsCTLByte.
function containsControlByte(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
