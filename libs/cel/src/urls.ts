// Go's url.ParseRequestURI, which Kubernetes' URL library (isURL, url) uses: an absolute URL or
// an absolute path, with no fragment (a `#` is part of the path or query), host and port kept as
// written. Errors are worded as Go's url.Error.
import { goQuote, RequestUriError, splitRequestUri } from '@plinth/machinery';

export interface ParsedUrl {
  scheme: string;
  host: string;
  // rawPath is the path as written, escapes kept.
  rawPath: string;
  rawQuery: string;
}

class UrlError extends Error {}

// The characters a host may hold unescaped (Go's shouldEscape in encodeHost mode).
const hostChar = /[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/;
const userinfoChar = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

// unescape checks the %-escapes of s (Go's unescape), and in a host its characters.
function checkEscapes(s: string, inHost: boolean): void {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      if (i + 2 >= s.length || !/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
        throw new UrlError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      i += 2;
    } else if (inHost && c.charCodeAt(0) < 0x80 && !hostChar.test(c)) {
      throw new UrlError(`invalid character ${goQuote(c)} in host name`);
    }
  }
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function checkHost(host: string): void {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new UrlError("missing ']' in host");
    const port = host.slice(close + 1);
    if (!validOptionalPort(port)) throw new UrlError(`invalid port ${goQuote(port)} after host`);
    checkEscapes(host.slice(0, close + 1), true);
    return;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !validOptionalPort(host.slice(colon))) throw new UrlError(`invalid port ${goQuote(host.slice(colon))} after host`);
  checkEscapes(host, true);
}

function parse(raw: string): ParsedUrl {
  const { scheme, authority, rawPath, rawQuery } = splitRequestUri(raw);
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !userinfoChar.test(authority.slice(0, at))) throw new UrlError('net/url: invalid userinfo');
  const host = authority.slice(at + 1);
  checkHost(host);
  checkEscapes(rawPath, false);
  return { scheme, host, rawPath, rawQuery };
}

// parseRequestUri returns the parsed URL, or the error Go's url.ParseRequestURI gives.
export function parseRequestUri(raw: string): ParsedUrl | Error {
  try {
    return parse(raw);
  } catch (err) {
    if (!(err instanceof UrlError || err instanceof RequestUriError)) throw err;
    return new Error(`parse ${goQuote(raw)}: ${err.message}`);
  }
}

// splitHost is Go's Hostname and Port: brackets of an IPv6 literal are dropped.
export function splitHost(host: string): { hostname: string; port: string } {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    const port = host.slice(close + 1);
    return { hostname: host.slice(1, close), port: port.startsWith(':') ? port.slice(1) : '' };
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? { hostname: host, port: '' } : { hostname: host.slice(0, colon), port: host.slice(colon + 1) };
}

// escapedPath is Go's EscapedPath: the path as written when it is validly escaped.
export function escapedPath(rawPath: string): string {
  if (/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/.test(rawPath)) return rawPath;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    path = rawPath;
  }
  return encodeURI(path).replace(/[?#]/g, (c) => encodeURIComponent(c));
}
