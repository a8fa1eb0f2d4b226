// check.ts holds Plinth's kubectl output to kube-apiserver's, session by session: the sessions of
// sessions.yaml run in order against one started Plinth, each transcript compared with its
// recorded fixture.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath, loadSessions, SessionRunner, sessionKubeconfig } from './sessions';

export interface StartedPlinth {
  adminKubeconfig: string;
  stop(): Promise<void>;
}

export function describeStockSessions(form: string, start: () => Promise<StartedPlinth>): void {
  describe(`stock kubectl sessions against the ${form}`, () => {
    let plinth: StartedPlinth | undefined;
    const dir = mkdtempSync(join(tmpdir(), 'kubectl-stock-'));

    beforeAll(async () => {
      plinth = await start();
    }, 120000);

    afterAll(async () => {
      await plinth?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const session of loadSessions()) {
      it(`prints what kube-apiserver prints: ${session.name}`, async () => {
        if (!plinth) throw new Error('plinth did not start');
        const runner = new SessionRunner(sessionKubeconfig(plinth.adminKubeconfig, dir, session), join(dir, 'cache'));
        expect(await runner.transcript(session)).toBe(readFileSync(fixturePath(session), 'utf8'));
      }, 240000);
    }
  });
}
