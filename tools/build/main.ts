// main.ts is the build target of every app and library (nx.json's targetDefaults):
//   node -r ./tools/register.js tools/build/main.ts PROJECT_ROOT... [--out-dir dist]
// Each project's sources become dist/PROJECT_ROOT/**/*.js; Nx builds a project's dependencies
// first (dependsOn ^build), so dist/apps/plinth/src/main.js runs with `node` alone.
import { resolve } from 'node:path';
import { compileProject } from './compile-project';

const workspaceRoot = resolve(__dirname, '../..');
const args = process.argv.slice(2);
const outFlag = args.indexOf('--out-dir');
const outRoot = resolve(workspaceRoot, outFlag >= 0 ? args[outFlag + 1] : 'dist');
const projectRoots = args.filter((_, i) => outFlag < 0 || (i !== outFlag && i !== outFlag + 1));
if (projectRoots.length === 0) {
  console.error('usage: tools/build/main.ts PROJECT_ROOT... [--out-dir DIR]');
  process.exit(2);
}
for (const projectRoot of projectRoots) {
  const files = compileProject(workspaceRoot, projectRoot, outRoot);
  console.log(`${projectRoot}: ${files.length} files compiled into ${outRoot}`);
}
