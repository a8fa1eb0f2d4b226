// image.ts lays out the image's application files (deploy/Dockerfile's build stage):
//   node -r ./tools/register.js tools/build/image.ts --from dist --to DIR
// DIR gets the compiled files the apps' entry points load, at their workspace paths, so that
// `node apps/gateway/src/main.js` run in DIR (beside a production node_modules) starts the
// gateway. Build the apps first: npx nx run-many -t build --projects=tag:type:app
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { copyRuntimeFiles, imageEntryPoints } from './runtime-files';

const workspaceRoot = resolve(__dirname, '../..');
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const from = flag('--from');
const to = flag('--to');
if (!from || !to) {
  console.error('usage: tools/build/image.ts --from BUILD_DIR --to DIR');
  process.exit(2);
}
const appRoots = readdirSync(join(workspaceRoot, 'apps')).map((name) => join('apps', name));
const files = copyRuntimeFiles(resolve(workspaceRoot, from), imageEntryPoints(workspaceRoot, appRoots), resolve(to));
console.log(`${files.length} files copied into ${resolve(to)}`);
