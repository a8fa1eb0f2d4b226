// The node flags of the deployed processes are written once, in deploy/Dockerfile's ENTRYPOINT
// (tools/build/node-flags.ts): read back as written, refused when the ENTRYPOINT is not
// ["node", flags...], and accepted by this node.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageNodeFlags, nodeFlagsOfEntrypoint } from '@plinth/build-tools';

const root = join(__dirname, '../..');

describe("the image's node flags", () => {
  it('reads the flags of the last ENTRYPOINT in exec form', () => {
    const dockerfile = 'FROM node:20-slim AS build\nENTRYPOINT ["sh"]\nFROM node:20-slim\nENTRYPOINT ["node", "--max-semi-space-size=4", "--heap-growing-percent=50"]\nCMD ["apps/plinth/src/main.js"]\n';
    expect(nodeFlagsOfEntrypoint(dockerfile)).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=50']);
    expect(nodeFlagsOfEntrypoint('ENTRYPOINT ["node"]\n')).toEqual([]);
  });

  it('refuses an ENTRYPOINT that is not node with flags', () => {
    expect(() => nodeFlagsOfEntrypoint('FROM node:20-slim\n')).toThrow('no ENTRYPOINT');
    expect(() => nodeFlagsOfEntrypoint('ENTRYPOINT node --max-semi-space-size=4\n')).toThrow('not in exec form');
    expect(() => nodeFlagsOfEntrypoint('ENTRYPOINT ["sh", "-c", "node"]\n')).toThrow('must be ["node", flags...]');
    expect(() => nodeFlagsOfEntrypoint('ENTRYPOINT ["node", "apps/plinth/src/main.js"]\n')).toThrow('must be ["node", flags...]');
  });

  it('are flags this node accepts, given to the process as written', () => {
    const flags = imageNodeFlags(root);
    expect(flags.length).toBeGreaterThan(0);
    const run = spawnSync(process.execPath, [...flags, '-e', 'console.log(JSON.stringify(process.execArgv))'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as string[]).slice(0, flags.length)).toEqual(flags);
  });

  it('are the flags npm run start:prod runs the compiled entry point with, its arguments after it', () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:prod']).toContain('tools/build/start-prod.ts dist/apps/plinth/src/main.js');
    const dir = mkdtempSync(join(tmpdir(), 'plinth-start-prod-'));
    try {
      const entry = join(dir, 'main.js');
      writeFileSync(entry, 'console.log(JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2) })); process.exit(3);\n');
      const run = spawnSync(process.execPath, ['-r', './tools/register.js', 'tools/build/start-prod.ts', entry, '--port', '6444'], { cwd: root, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(3);
      expect(JSON.parse(run.stdout)).toEqual({ execArgv: imageNodeFlags(root), argv: ['--port', '6444'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
