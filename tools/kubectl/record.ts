// record.ts runs the stock kubectl sessions (test/kubectl/stock/sessions.yaml) against the
// server of KUBECONFIG (a real kube-apiserver 1.28, whose admin is in system:masters) and writes
// each session's normalised transcript as its fixture under test/kubectl/testdata/stock/:
//
//   KUBECONFIG=... node -r ./tools/register.js tools/kubectl/record.ts [--out DIR] [session ...]
//
// --out writes the transcripts to DIR instead (to compare another server's with the fixtures).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath, loadSessions, SessionRunner, sessionKubeconfig } from '../../test/kubectl/stock/sessions';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? args.splice(outIndex, 2)[1] : undefined;
  const admin = process.env.KUBECONFIG;
  if (!admin) throw new Error('KUBECONFIG must name the admin kubeconfig of the server to record');
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-record-'));
  try {
    for (const session of loadSessions().filter((s) => args.length === 0 || args.includes(s.name))) {
      const runner = new SessionRunner(sessionKubeconfig(admin, dir, session), join(dir, 'cache'));
      let transcript: string;
      try {
        transcript = await runner.transcript(session);
      } finally {
        await runner.cleanup(session);
      }
      const path = out ? join(out, `${session.name}.txt`) : fixturePath(session);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, transcript);
      process.stdout.write(`${session.name}: ${path}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
