// The committed protobuf message tables are what the generator makes of the descriptors kubectl
// embeds and the registry schemas: a schema change without regenerated tables fails here.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { kubectlBinary } from '@plinth/testing-server';

const root = join(__dirname, '..', '..');

describe('protobuf message tables', () => {
  it('are up to date (node -r ./tools/register.js tools/protobuf/generate-tables.ts) and cover every schema property', () => {
    const run = spawnSync(process.execPath, ['-r', './tools/register.js', 'tools/protobuf/generate-tables.ts', '--check', kubectlBinary], { cwd: root, encoding: 'utf8', timeout: 60000 });
    expect(run.stdout).toBe('tables are up to date\n');
    expect(run.status).toBe(0);
  });
});
