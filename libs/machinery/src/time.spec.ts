import { rfc3339 } from './time';

describe('rfc3339', () => {
  it('formats UTC at whole seconds, dropping the fraction', () => {
    expect(rfc3339(Date.parse('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05Z');
    expect(rfc3339(Date.parse('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05Z');
    expect(rfc3339(0)).toBe('1970-01-01T00:00:00Z');
  });

  it('answers each second anew, however the calls alternate', () => {
    const seconds = ['2026-01-02T03:04:05Z', '2026-01-02T03:04:06Z', '1999-12-31T23:59:59Z'];
    for (const iso of [...seconds, ...seconds.reverse(), seconds[0]]) expect(rfc3339(Date.parse(iso) + 500)).toBe(iso);
    expect(() => rfc3339(NaN)).toThrow(RangeError);
    expect(rfc3339(1500)).toBe('1970-01-01T00:00:01Z');
  });
});
