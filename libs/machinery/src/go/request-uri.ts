// The shape of Go's url.ParseRequestURI, which both kube-apiserver (routing a request-target) and
// Kubernetes' CEL URL library (isURL, url) use: an absolute URL or an absolute path, no fragment
// (a `#` is part of the path or query). splitRequestUri cuts the text into its parts and refuses
// what Go refuses before looking inside them; its callers check the parts (escapes, host) as
// they need, and word the errors as they answer them.

export interface RequestUriParts {
  // scheme is "" for a path ("/a"); else as written, without the ":".
  scheme: string;
  // authority is the text between "//" and the path of an absolute URL (userinfo@host:port).
  authority: string;
  // rawPath is the path as written, escapes kept; "" for an opaque URL (mailto:x) or "scheme://host".
  rawPath: string;
  // rawQuery is the text after the first "?", undecoded.
  rawQuery: string;
}

// RequestUriError carries Go's message (the url.Error's Err), without the "parse ..." prefix.
export class RequestUriError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestUriError';
  }
}

const schemePrefix = /^([A-Za-z][A-Za-z0-9+.-]*):/;

export function splitRequestUri(raw: string): RequestUriParts {
  if (raw === '') throw new RequestUriError('empty url');
  if (containsControlByte(raw)) throw new RequestUriError('net/url: invalid control character in URL');
  if (raw === '*') return { scheme: '', authority: '', rawPath: '*', rawQuery: '' };
  if (raw.startsWith(':')) throw new RequestUriError('missing protocol scheme');
  const schemeMatch = schemePrefix.exec(raw);
  const scheme = schemeMatch ? schemeMatch[1] : '';
  let rest = schemeMatch ? raw.slice(schemeMatch[0].length) : raw;
  let rawQuery = '';
  const question = rest.indexOf('?');
  if (question >= 0) {
    rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  if (!rest.startsWith('/')) {
    // An opaque URL (scheme:opaque) has no path; without a scheme Go refuses it.
    if (scheme !== '') return { scheme, authority: '', rawPath: '', rawQuery };
    throw new RequestUriError('invalid URI for request');
  }
  if (scheme === '' || !rest.startsWith('//')) return { scheme, authority: '', rawPath: rest, rawQuery };
  const slash = rest.indexOf('/', 2);
  if (slash < 0) return { scheme, authority: rest.slice(2), rawPath: '', rawQuery };
  return { scheme, authority: rest.slice(2, slash), rawPath: rest.slice(slash), rawQuery };
}

// containsControlByte is Go's stringContainsCTLByte.
function containsControlByte(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
