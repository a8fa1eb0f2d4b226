import { rfc3339 } from './time';

describe('rfc3339', () => {
  it('formats UTC at whole seconds, dropping the fraction', () => {
    expect(rfc3339(Date.parse('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05Z');
    expect(rfc3339(Date.parse('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05Z');
    expect(rfc3339(0)).toBe('1970-01-01T00:00:00Z');
  });
});
