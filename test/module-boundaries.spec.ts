// The dependency rules of CONVENTIONS.md are enforced by lint: these cases prove the rule
// fails on a violation, not merely that the tree is clean today.
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

// lint runs the project's eslint on source as if it were the file at `file`.
async function lint(file: string, source: string): Promise<string[]> {
  const run = spawnSync(join(root, 'node_modules/.bin/eslint'), ['--stdin', '--stdin-filename', file, '--format', 'json'], {
    cwd: root,
    input: source,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(run.stdout) as { messages: LintMessage[] }[];
  return result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
}

describe('module boundaries', () => {
  beforeAll(() => {
    // The rule reads Nx's project graph; computing it here keeps the test independent of order.
    execFileSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, env: { ...process.env, NX_DAEMON: 'false' }, stdio: 'ignore' });
  }, 60000);

  it('refuses a core lib importing the storage lib', async () => {
    const messages = await lint('libs/machinery/src/violation.ts', "import { StorageError } from '@plinth/storage';\nexport const e = StorageError;\n");
    expect(messages.join('\n')).toMatch(/"type:core" can only depend on libs tagged with|Circular dependency between "machinery" and "storage"/);
  });

  it('refuses Nest in a core lib', async () => {
    const messages = await lint('libs/machinery/src/violation.ts', "import { Injectable } from '@nestjs/common';\nexport const i = Injectable;\n");
    expect(messages.join('\n')).toMatch(/"type:core" is not allowed to import "@nestjs\/common"/);
  });

  it('refuses the test harness in library code but allows it in a spec', async () => {
    const source = "import { FakeClock } from '@plinth/testing';\nexport const c = FakeClock;\n";
    expect(await lint('libs/storage/src/violation.ts', source)).not.toEqual([]);
    expect(await lint('libs/storage/src/violation.spec.ts', source)).toEqual([]);
  });

  it('accepts an allowed import', async () => {
    expect(await lint('libs/storage/src/fine.ts', "import { realClock } from '@plinth/machinery';\nexport const c = realClock;\n")).toEqual([]);
  });
});
