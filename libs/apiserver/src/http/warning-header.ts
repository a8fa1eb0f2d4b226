// Warning headers as kube-apiserver writes them: its warning recorder
// (k8s.io/apiserver/pkg/endpoints/filters/warning.go) over net.NewWarningHeader. Each text
// becomes `299 - "<text>"` with only `"` and `\` escaped; a text with a control character is
// dropped, a repeated text is dropped, and once the texts pass 4,096 runes in all every text is
// cut to its first 256 runes. Go writes the text's UTF-8 bytes as they are.

// warningTotalRunes and warningItemRunes are the recorder's truncateAtTotalRunes and
// truncateItemRunes.
const warningTotalRunes = 4 * 1024;
const warningItemRunes = 256;

// hasControlCharacter is Go's unicode.IsControl over a text: C0, DEL and C1.
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

// isAscii tells a header value Node can write as it is.
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

// warningHeaderValues are the Warning header values for the warnings of one response, in the
// form Node's setHeader takes: Node writes a header string as Latin-1 (one byte per character),
// so a value with text beyond ASCII comes back as the Latin-1 string of its UTF-8 bytes, which
// then go on the wire as Go writes them.
export function warningHeaderValues(warnings: readonly string[]): string[] {
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let values: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of warnings) {
    if (text.length === 0 || recorded.has(text)) continue;
    if (truncating && written >= warningTotalRunes) break;
    recorded.add(text);
    ordered.push(text);
    const item = truncating ? truncateRunes(text) : text;
    const value = warningHeaderValue(item);
    if (value === null) continue;
    const runes = runeCount(item);
    if (truncating || written + runes <= warningTotalRunes) {
      written += runes;
      values.push(value);
      continue;
    }
    // Past the limit: start over with every text so far cut short.
    truncating = true;
    written = 0;
    values = [];
    for (const earlier of ordered) {
      const cut = truncateRunes(earlier);
      const earlierValue = warningHeaderValue(cut);
      if (earlierValue === null) continue;
      written += runeCount(cut);
      values.push(earlierValue);
    }
  }
  return values;
}

// warningHeaderValue is net.NewWarningHeader(299, "-", text) in Node's header form, or null for
// a text Go refuses (one with a control character).
export function warningHeaderValue(text: string): string | null {
  if (hasControlCharacter(text)) return null;
  const value = `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return isAscii(value) ? value : Buffer.from(value, 'utf8').toString('latin1');
}

function runeCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function truncateRunes(text: string): string {
  if (text.length <= warningItemRunes) return text;
  let cut = 0;
  let runes = 0;
  for (const ch of text) {
    if (runes === warningItemRunes) return text.slice(0, cut);
    cut += ch.length;
    runes++;
  }
  return text;
}
