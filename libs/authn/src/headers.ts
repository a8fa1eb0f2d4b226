// Header access for the authenticators. Headers arrive as Node gives them: lower-cased names,
// values a string or a list. Pass `req.headersDistinct` so that repeated headers (Impersonate-Group,
// X-Remote-Group) stay separate values, as Go's http.Header keeps them.
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

// headerValues returns every value of the named header, matched case-insensitively.
export function headerValues(headers: HeaderMap, name: string): string[] {
  const wanted = name.toLowerCase();
  const out: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === 'string') out.push(value);
    else out.push(...value);
  }
  return out;
}

// headerValue is http.Header.Get: the first value, or '' when the header is absent.
export function headerValue(headers: HeaderMap, name: string): string {
  return headerValues(headers, name)[0] ?? '';
}

// headersWithPrefix lists [rest of the name after the prefix, values] for every header whose name
// starts with prefix, case-insensitively; the rest is lower-cased.
export function headersWithPrefix(headers: HeaderMap, prefix: string): Array<[string, string[]]> {
  const wanted = prefix.toLowerCase();
  const out: Array<[string, string[]]> = [];
  for (const [key, value] of Object.entries(headers)) {
    const lower = key.toLowerCase();
    if (!lower.startsWith(wanted) || value === undefined) continue;
    out.push([lower.slice(wanted.length), typeof value === 'string' ? [value] : [...value]]);
  }
  return out;
}

const hexDigit = /^[0-9a-fA-F]{2}$/;

// unescapeExtraKey is Go's url.PathUnescape with the fallback of Kubernetes' unescapeExtraKey: %-encoded bytes are
// decoded, and a malformed escape leaves the key as it was.
export function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  const bytes: number[] = [];
  const raw = Buffer.from(encoded, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== 0x25) {
      bytes.push(raw[i]);
      continue;
    }
    const hex = raw.subarray(i + 1, i + 3).toString('latin1');
    if (!hexDigit.test(hex)) return encoded;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  return Buffer.from(bytes).toString('utf8');
}
