// The bad-input suite against the all-in-one API server in this process (over HTTPS, the
// embedded store): about 1,300 generated hostile requests from one seed (a fifth of them over
// HTTP/2), then the process's own
// state: no prototype pollution of this realm, the heap back near its level.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestApiServer, TestApiServer, testTokens } from '@plinth/testing-server';
import { behaviourAfterRun, failureReport } from './after-run';
import { credentialForger } from './credentials';
import { runnableCases } from './generate';
import { h2AbuseTests } from './h2-abuse';
import { HostileTarget, hostileTransport, runHostileCases } from './hostile-run';
import { pollutionKey } from './mutators';
import { seedFromEnv } from './prng';
import { defaultSeed } from './seed';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const seed = seedFromEnv(defaultSeed);
const mib = 1024 * 1024;

describe(`hostile requests against the all-in-one server (HARDENING_SEED=${seed})`, () => {
  let server: TestApiServer;
  let target: HostileTarget;

  beforeAll(async () => {
    server = await startTestApiServer({}, { https: true });
    target = {
      port: Number(new URL(server.url).port),
      ca: server.ca,
      adminToken: testTokens.admin,
      unprivilegedToken: testTokens.bob,
      forge: credentialForger(server.serviceAccountKey),
    };
  }, 60000);

  afterAll(() => server?.stop());

  it('answers every hostile request with a Status or a refusal, changes nothing it refuses, and stays itself', async () => {
    const { cases, pending } = runnableCases(seed);
    // The first hundred warm the server (code loaded, caches filled) before the heap is measured.
    const warmUp = await runHostileCases(target, cases.slice(0, 100), hostileTransport);
    const heapBefore = heapAfterGc();
    const rest = await runHostileCases(target, cases.slice(100), hostileTransport);
    const heapAfter = heapAfterGc();

    expect(failureReport(seed, cases.length, [...warmUp.failures, ...rest.failures])).toBe('');
    expect(cases.length + pending.reduce((n, p) => n + p.count, 0)).toBeGreaterThanOrEqual(1000);
    // A fifth of the cases (but the framing ones) went over HTTP/2.
    expect(warmUp.sentOverH2 + rest.sentOverH2).toBeGreaterThanOrEqual(250);

    const after = await behaviourAfterRun(target);
    expect(after).toEqual({ created: 201, pollutedAnswers: [], unprivilegedList: 403, healthz: '200 ok' });
    // Modules of the server run in this realm: a polluted prototype would be seen here.
    expect(({} as Record<string, unknown>)[pollutionKey]).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain(pollutionKey);
    expect(Object.getOwnPropertyNames(Array.prototype)).not.toContain(pollutionKey);
    // Generous: the run's objects stay in the store; a leak of the hostile bodies would not.
    expect((heapAfter - heapBefore) / mib).toBeLessThan(64);
    // The bound only stops a hang: the run takes about 40 s alone, several times that on a busy machine.
  }, 300000);

  describe('hostile HTTP/2', () => {
    h2AbuseTests(() => target);
  });
});
