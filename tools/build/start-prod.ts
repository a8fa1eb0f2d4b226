// start-prod.ts runs a compiled entry point as the image does: `node`, the image's node flags
// (deploy/Dockerfile's ENTRYPOINT, read with imageNodeFlags), the entry point, its arguments.
// `npm run start:prod` starts the compiled all-in-one through it:
//   node -r ./tools/register.js tools/build/start-prod.ts ENTRY [ARGS...]
// Signals reach the child, which decides when to stop; its exit code is this process's.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { imageNodeFlags } from './node-flags';

const workspaceRoot = resolve(__dirname, '../..');
const [entry, ...args] = process.argv.slice(2);
if (entry === undefined) {
  console.error('usage: tools/build/start-prod.ts ENTRY [ARGS...]');
  process.exit(2);
}
const child = spawn(process.execPath, [...imageNodeFlags(workspaceRoot), resolve(entry), ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
// A child ended by a signal exits as a shell reports it: 128 + the signal's number.
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
