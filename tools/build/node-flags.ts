// node-flags.ts reads the node flags every deployed Plinth process runs with. deploy/Dockerfile's
// ENTRYPOINT is the one place they are written: the Helm chart's containers give only arguments
// (the app's main.js and its flags), so they run with the image's ENTRYPOINT, and what runs the
// compiled apps outside an image (bench/processes.ts, test/build and test/helm, which run the
// chart's containers as local processes) starts them with imageNodeFlags.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// imageNodeFlags returns the flags between `node` and the entry point in the Dockerfile's
// ENTRYPOINT (exec form), e.g. ['--max-semi-space-size=4'].
export function imageNodeFlags(workspaceRoot: string): string[] {
  return nodeFlagsOfEntrypoint(readFileSync(join(workspaceRoot, 'deploy/Dockerfile'), 'utf8'));
}

// nodeFlagsOfEntrypoint reads a Dockerfile's last ENTRYPOINT, which must be the exec form
// ["node", flags...].
export function nodeFlagsOfEntrypoint(dockerfile: string): string[] {
  const entrypoints = [...dockerfile.matchAll(/^ENTRYPOINT\s+(.+)$/gm)];
  const last = entrypoints[entrypoints.length - 1];
  if (!last) throw new Error('the Dockerfile has no ENTRYPOINT');
  let command: unknown;
  try {
    command = JSON.parse(last[1]);
  } catch {
    throw new Error(`the Dockerfile's ENTRYPOINT is not in exec form: ${last[1]}`);
  }
  if (!Array.isArray(command) || command[0] !== 'node' || !command.every((part) => typeof part === 'string' && (part === 'node' || part.startsWith('--')))) {
    throw new Error(`the Dockerfile's ENTRYPOINT must be ["node", flags...]: ${last[1]}`);
  }
  return command.slice(1) as string[];
}
