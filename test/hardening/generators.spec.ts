// The generators are pure: one seed gives the same cases, byte for byte, on every run; another
// seed gives others. And the generated set is what the suite promises: at least 1,000 cases
// across every family, every body format and patch type.
import { createHash } from 'node:crypto';
import { generateCases, hasTag, PENDING_FIXES, runnableCases } from './generate';
import { HostileCase } from './hostile-case';
import { answerBoundMs, requestTimeoutMs } from './hostile-run';
import { fromPlain, Obj, toJson, toYaml } from './json-tree';
import { Prng, seedFromEnv } from './prng';

const digest = (cases: HostileCase[]) => {
  const hash = createHash('sha256');
  for (const c of cases) hash.update(JSON.stringify({ ...c, body: c.body?.toString('base64') }));
  return hash.digest('hex');
};

describe('hostile request generators', () => {
  it('give every answer 10 s, and 10 s more per MiB of the request', () => {
    expect(answerBoundMs(200)).toBe(requestTimeoutMs + 2);
    expect(answerBoundMs(1 << 20)).toBe(2 * requestTimeoutMs);
    expect(answerBoundMs(1_288_978)).toBeGreaterThan(22_000);
  });

  it('give the same cases for the same seed and others for another seed', () => {
    expect(digest(generateCases(42))).toBe(digest(generateCases(42)));
    expect(digest(generateCases(42))).not.toBe(digest(generateCases(43)));
  });

  it('draw the same sequence from a seed', () => {
    const draw = (seed: number) => {
      const prng = new Prng(seed);
      return Array.from({ length: 5 }, () => prng.int(1000));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(new Prng(1).string(8)).toMatch(/^[a-z0-9]{8}$/);
  });

  it('read the seed from HARDENING_SEED, refusing what is not a 32-bit integer', () => {
    expect(seedFromEnv(5, {})).toBe(5);
    expect(seedFromEnv(5, { HARDENING_SEED: '0x10' })).toBe(16);
    expect(seedFromEnv(5, { HARDENING_SEED: '123' })).toBe(123);
    expect(() => seedFromEnv(5, { HARDENING_SEED: 'soon' })).toThrow(/HARDENING_SEED/);
    expect(() => seedFromEnv(5, { HARDENING_SEED: String(2 ** 32) })).toThrow(/HARDENING_SEED/);
  });

  it('make at least 1,000 cases across every family, format, patch type and credential', () => {
    const cases = generateCases(1);
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    expect(cases.map((c) => c.id)).toEqual(cases.map((_, i) => i));
    const contentTypes = new Set(cases.flatMap((c) => c.headers.filter(([k]) => k === 'content-type').map(([, v]) => v)));
    for (const type of ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']) {
      expect(contentTypes).toContain(type);
    }
    const families = new Set(cases.map((c) => c.family));
    for (const family of ['json-create', 'yaml-create', 'protobuf-create', 'patch-json', 'patch-merge', 'patch-strategic', 'patch-apply', 'query', 'delete-options', 'path', 'header', 'framing', 'credential', 'impersonation', 'pollution-create', 'pollution-patch', 'custom-resource', 'custom-resource-patch', 'subresource']) {
      expect(families).toContain(family);
    }
    const forged = new Set(cases.flatMap((c) => (c.credential.kind === 'forged' ? [c.credential.forged] : [])));
    expect([...forged].sort()).toEqual(['alg-none-jwt', 'expired-service-account-token', 'foreign-key-jwt', 'hs256-public-key-jwt', 'stranger-client-cert', 'wrong-issuer-jwt']);
  });

  it('hold back exactly the cases PENDING_FIXES names', () => {
    const all = generateCases(1);
    const { cases, pending } = runnableCases(1);
    expect(cases.length + pending.reduce((n, p) => n + p.count, 0)).toBeGreaterThanOrEqual(all.length);
    expect(cases.some((c) => PENDING_FIXES.some((fix) => fix.matches(c)))).toBe(false);
    expect(hasTag({ ...all[0], tag: 'value:null+key:emoji' }, 'key:emoji')).toBe(true);
    expect(hasTag({ ...all[0], tag: 'merge:key:emoji' }, 'key:emoji')).toBe(true);
    expect(hasTag({ ...all[0], tag: 'key:emojis' }, 'key:emoji')).toBe(false);
  });

  it('write __proto__ keys as own keys, in JSON and YAML alike', () => {
    const tree = new Obj([['__proto__', new Obj([['polluted', 'yes']])], ['a', fromPlain([1, null])]]);
    expect(toJson(tree)).toBe('{"__proto__":{"polluted":"yes"},"a":[1,null]}');
    expect(toYaml(tree)).toBe('"__proto__":\n  "polluted": "yes"\n"a":\n  - 1\n  - null');
  });
});
