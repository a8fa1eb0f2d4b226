import { goTimeParseError, parseGoTime } from './go-time';

describe('goTimeParseError (time.Parse with RFC 3339 layouts)', () => {
  it('accepts RFC 3339 times, with a fraction and offsets', () => {
    for (const ok of ['2020-01-02T03:04:05Z', '2020-02-29T23:59:59.123456789Z', '2020-01-02T03:04:05+05:30', '2020-01-02T3:04:05Z', '2020-01-02T03:04:05,5-24:00']) {
      expect(goTimeParseError(ok, 'RFC3339')).toBeNull();
    }
    expect(goTimeParseError('2020-01-02T03:04:05.123456Z', 'RFC3339Micro')).toBeNull();
  });

  it('names the element out of range', () => {
    expect(goTimeParseError('2020-13-45T99:99:99Z', 'RFC3339')).toBe('parsing time "2020-13-45T99:99:99Z": month out of range');
    expect(goTimeParseError('2020-12-45T99:99:99Z', 'RFC3339')).toBe('parsing time "2020-12-45T99:99:99Z": hour out of range');
    expect(goTimeParseError('2020-12-45T23:99:99Z', 'RFC3339')).toBe('parsing time "2020-12-45T23:99:99Z": minute out of range');
    expect(goTimeParseError('2020-12-45T23:59:99Z', 'RFC3339')).toBe('parsing time "2020-12-45T23:59:99Z": second out of range');
    expect(goTimeParseError('2020-12-45T23:59:59Z', 'RFC3339')).toBe('parsing time "2020-12-45T23:59:59Z": day out of range');
    expect(goTimeParseError('2021-02-29T00:00:00Z', 'RFC3339')).toBe('parsing time "2021-02-29T00:00:00Z": day out of range');
    expect(goTimeParseError('2020-01-01T00:00:00+25:00', 'RFC3339')).toBe('parsing time "2020-01-01T00:00:00+25:00": time zone offset hour out of range');
  });

  it('names the text and the layout element that do not parse', () => {
    expect(goTimeParseError('soon', 'RFC3339')).toBe('parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"');
    expect(goTimeParseError('2020-1-02T00:00:00Z', 'RFC3339')).toBe('parsing time "2020-1-02T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-02T00:00:00Z" as "01"');
    expect(goTimeParseError('2020-01-02 00:00:00Z', 'RFC3339')).toBe('parsing time "2020-01-02 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"');
    expect(goTimeParseError('2020-01-02T00:00:00', 'RFC3339')).toBe('parsing time "2020-01-02T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
    expect(goTimeParseError('2020-01-02T00:00:00Zjunk', 'RFC3339')).toBe('parsing time "2020-01-02T00:00:00Zjunk": extra text: "junk"');
    expect(goTimeParseError('2020-01-02T00:00:00.12Z', 'RFC3339Micro')).toBe('parsing time "2020-01-02T00:00:00.12Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".12Z" as ".000000"');
    expect(goTimeParseError('2020-01-02T00:00:00Z\u00e9', 'RFC3339')).toBe('parsing time "2020-01-02T00:00:00Z\\xc3\\xa9": extra text: "\\xc3\\xa9"');
  });
});

describe('parseGoTime', () => {
  it('gives the time as Go writes it back: in UTC, to the second or the microsecond', () => {
    expect(parseGoTime('2020-01-01T1:00:00+01:00', 'RFC3339')).toEqual({ text: '2020-01-01T00:00:00Z' });
    expect(parseGoTime('2020-01-01T00:30:00.75-01:00', 'RFC3339')).toEqual({ text: '2020-01-01T01:30:00Z' });
    expect(parseGoTime('2020-12-31T23:00:00,5-24:00', 'RFC3339')).toEqual({ text: '2021-01-01T23:00:00Z' });
    expect(parseGoTime('2020-01-02T03:04:05.123456+00:30', 'RFC3339Micro')).toEqual({ text: '2020-01-02T02:34:05.123456Z' });
    expect(parseGoTime('2020-01-02T03:04:05Z', 'RFC3339')).toEqual({ text: '2020-01-02T03:04:05Z' });
    expect(parseGoTime('soon', 'RFC3339').error).toBe('parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"');
  });
});
