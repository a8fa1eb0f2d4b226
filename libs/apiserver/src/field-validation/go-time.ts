// goTimeParseError is Go's time.Parse (Go 1.21) for the two layouts metav1.Time and
// metav1.MicroTime read JSON with: RFC 3339 and RFC 3339 with microseconds. It answers null when
// Go accepts the text, else Go's *time.ParseError text, e.g.
//   parsing time "2020-13-45T99:99:99Z": month out of range
//   parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"
// Go parses the layout chunk by chunk: a literal prefix, then one element (year, month, ...);
// the first element that does not parse or is out of range ends it with that element's error.

export type GoTimeLayout = 'RFC3339' | 'RFC3339Micro';

const layouts: Record<GoTimeLayout, string> = {
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Micro: '2006-01-02T15:04:05.000000Z07:00',
};

type Element = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micro' | 'zone';

type Chunk = [string, Element, string];

// dateTime is the part the layouts share: RFC 3339 up to the seconds.
const dateTime: Chunk[] = [
  ['', 'year', '2006'],
  ['-', 'month', '01'],
  ['-', 'day', '02'],
  ['T', 'hour', '15'],
  [':', 'minute', '04'],
  [':', 'second', '05'],
];
const zone: Chunk = ['', 'zone', 'Z07:00'];

// chunks are the layouts as Go's nextStdChunk splits them: [prefix, element, element text].
const chunks: Record<GoTimeLayout, Chunk[]> = {
  RFC3339: [...dateTime, zone],
  RFC3339Micro: [...dateTime, ['', 'micro', '.000000'], zone],
};

class Bad extends Error {}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

// getnum is Go's getnum: one or two digits (exactly two when fixed).
function getnum(s: string, fixed: boolean): [number, string] {
  if (!isDigit(s, 0)) throw new Bad();
  if (!isDigit(s, 1)) {
    if (fixed) throw new Bad();
    return [s.charCodeAt(0) - 0x30, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const lowerHex = '0123456789abcdef';

// timeQuote is the time package's quote: non-ASCII and control bytes as \xNN.
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80 || c < 0x20) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${lowerHex[byte >> 4]}${lowerHex[byte & 0xf]}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

// GoTime is a time Go parsed: the error, or the text Go writes the time back as (metav1.Time
// and MicroTime marshal it in UTC: RFC 3339 with seconds, or with microseconds).
export type GoTime = { error: string; text?: undefined } | { error?: undefined; text: string };

export function goTimeParseError(text: string, layoutName: GoTimeLayout): string | null {
  return parseGoTime(text, layoutName).error ?? null;
}

export function parseGoTime(text: string, layoutName: GoTimeLayout): GoTime {
  const layout = layouts[layoutName];
  const cannotParse = (valueElem: string, layoutElem: string) => ({
    error: `parsing time ${timeQuote(text)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
  });
  const withMessage = (message: string) => ({ error: `parsing time ${timeQuote(text)}${message}` });
  let value = text;
  const t = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, fraction: '', offsetMinutes: 0 };
  const steps = chunks[layoutName];
  for (let i = 0; i < steps.length; i++) {
    const [prefix, element, elementText] = steps[i];
    for (const p of prefix) {
      if (value.length === 0 || value[0] !== p) return cannotParse(value, prefix);
      value = value.slice(1);
    }
    const hold = value;
    let range = '';
    try {
      switch (element) {
        case 'year':
          if (value.length < 4 || !isDigit(value, 0)) throw new Bad();
          if (!/^\d{4}$/.test(value.slice(0, 4))) throw new Bad();
          t.year = Number(value.slice(0, 4));
          value = value.slice(4);
          break;
        case 'month':
          [t.month, value] = getnum(value, true);
          if (t.month <= 0 || t.month > 12) range = 'month';
          break;
        case 'day':
          [t.day, value] = getnum(value, true);
          break;
        case 'hour':
          [t.hour, value] = getnum(value, false);
          if (t.hour >= 24) range = 'hour';
          break;
        case 'minute':
          [t.minute, value] = getnum(value, true);
          if (t.minute >= 60) range = 'minute';
          break;
        case 'second': {
          [t.second, value] = getnum(value, true);
          if (t.second >= 60) {
            range = 'second';
            break;
          }
          // a fraction the layout does not name is read all the same
          if (layoutName === 'RFC3339' && value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
            let n = 2;
            while (n < value.length && isDigit(value, n)) n++;
            t.fraction = value.slice(1, n);
            value = value.slice(n);
          }
          break;
        }
        case 'micro': {
          // parseNanoseconds: a separator, then Go's atoi of the digits (a sign is allowed)
          const digits = value.slice(1, 7);
          if (value.length < 7 || (value[0] !== '.' && value[0] !== ',') || !/^[+-]?\d*$/.test(digits)) throw new Bad();
          if (digits.startsWith('-') && Number(digits) !== 0) range = 'fractional second';
          t.fraction = String(Math.abs(Number(digits) || 0)).padStart(digits.replace(/^[+-]/, '').length, '0');
          value = value.slice(7);
          break;
        }
        case 'zone':
          [t.offsetMinutes, value] = parseZone(value, (r) => (range = r));
          break;
      }
    } catch (err) {
      if (!(err instanceof Bad)) throw err;
      if (range) return withMessage(`: ${range} out of range`);
      return cannotParse(hold, elementText);
    }
    if (range) return withMessage(`: ${range} out of range`);
  }
  if (value.length > 0) return withMessage(`: extra text: ${timeQuote(value)}`);
  if (t.day < 1 || t.day > daysIn(t.month, t.year)) return withMessage(': day out of range');
  return { text: formatUtc(t, layoutName) ?? text };
}

// formatUtc writes a parsed time in UTC as Go's Format(RFC3339) or Format(RFC3339Micro) does;
// undefined when the UTC year leaves 0000-9999 (the text is then kept as it came).
function formatUtc(t: { year: number; month: number; day: number; hour: number; minute: number; second: number; fraction: string; offsetMinutes: number }, layoutName: GoTimeLayout): string | undefined {
  const date = new Date(0);
  date.setUTCFullYear(t.year, t.month - 1, t.day);
  date.setUTCHours(t.hour, t.minute - t.offsetMinutes, t.second, 0);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  const base = `${String(year).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  return layoutName === 'RFC3339Micro' ? `${base}.${t.fraction.padEnd(6, '0').slice(0, 6)}Z` : `${base}Z`;
}

// parseZone reads Z or ±hh:mm into an offset in minutes east of UTC. Go checks the offset's
// range (with >: 24 and 60 pass) even when a later part of it does not parse, and a range error
// wins.
function parseZone(value: string, outOfRange: (what: string) => void): [number, string] {
  if (value.length >= 1 && value[0] === 'Z') return [0, value.slice(1)];
  if (value.length < 6 || value[3] !== ':') throw new Bad();
  let bad = false;
  const two = (s: string): number => {
    try {
      return getnum(s, true)[0];
    } catch {
      bad = true;
      return 0;
    }
  };
  const hours = two(value.slice(1, 3));
  const minutes = bad ? 0 : two(value.slice(4, 6));
  if (hours > 24) outOfRange('time zone offset hour');
  if (minutes > 60) outOfRange('time zone offset minute');
  if (bad || (value[0] !== '+' && value[0] !== '-')) throw new Bad();
  const offset = hours * 60 + minutes;
  return [value[0] === '-' ? -offset : offset, value.slice(6)];
}
