// The request-target as Go's net/http reads it (url.ParseRequestURI), which is what
// kube-apiserver routes on: the path percent-decoded but otherwise as sent (no dot segments
// resolved, no slashes merged, no backslashes turned around), so `/api/v1/namespaces/%2e%2e/pods`
// names the namespace "..", never the pods of every namespace. A target Go refuses is a
// RequestTargetError, which the server answers as Go's server does (400 Bad Request).
import { RequestUriError, RequestUriParts, splitRequestUri } from '@plinth/machinery';

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

// parseRequestTarget reads the request-target of a request with the given method. Node hands
// over the target as it came, one character per byte.
export function parseRequestTarget(method: string, target: string): RequestTarget {
  // CONNECT's authority form (host:port) is read as http://host:port, as Go's readRequest does.
  const absolute = method === 'CONNECT' && target !== '' && !target.startsWith('/') ? `http://${target}` : target;
  let parts: RequestUriParts;
  try {
    parts = splitRequestUri(absolute);
  } catch (err) {
    if (err instanceof RequestUriError) throw new RequestTargetError(err.message);
    throw err;
  }
  return { path: unescapePath(parts.rawPath), rawQuery: parts.rawQuery };
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
