// image-tree.ts lays out on this machine what deploy/Dockerfile puts in the image, for tests
// where no container runtime runs: the apps compiled by the build target's compiler, the files
// their entry points load (tools/build/image.ts), package.json, and a node_modules that holds
// only what `npm ci --omit=dev` installs (links into the workspace's node_modules). The tree
// lives outside the workspace, so a require of a devDependency fails as it would in the image.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { compileProject, copyRuntimeFiles, imageEntryPoints, imageNodeFlags } from '@plinth/build-tools';

const workspaceRoot = resolve(__dirname, '../..');

export interface ImageTree {
  // root is the image's working directory (/opt/plinth): run `node ENTRY_POINT ...` there.
  readonly root: string;
  readonly entryPoints: readonly string[];
  // nodeFlags are the flags of the image's ENTRYPOINT (`node FLAGS ENTRY_POINT ...`).
  readonly nodeFlags: readonly string[];
  readonly files: readonly string[];
  remove(): void;
}

export function assembleImageTree(): ImageTree {
  const root = mkdtempSync(join(tmpdir(), 'plinth-image-'));
  const build = mkdtempSync(join(tmpdir(), 'plinth-build-'));
  try {
    const projectRoots = ['apps', 'libs'].flatMap((dir) => readdirSync(join(workspaceRoot, dir)).map((name) => join(dir, name)));
    for (const projectRoot of projectRoots) compileProject(workspaceRoot, projectRoot, build);
    const entryPoints = imageEntryPoints(workspaceRoot, projectRoots);
    const files = copyRuntimeFiles(build, entryPoints, root);
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(workspaceRoot, file), join(root, file));
    linkProductionDependencies(root);
    return { root, entryPoints, nodeFlags: imageNodeFlags(workspaceRoot), files, remove: () => rmSync(root, { recursive: true, force: true }) };
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

// productionPackages are the top-level packages of package-lock.json that `npm ci --omit=dev`
// installs (nested ones come with their parent's directory).
export function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(workspaceRoot, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages as Record<string, { dev?: boolean }>)
    .filter(([location, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(location) && !entry.dev)
    .map(([location]) => location.slice('node_modules/'.length));
}

function linkProductionDependencies(root: string): void {
  const installed = new Set(readdirSync(join(workspaceRoot, 'node_modules')).flatMap((name) =>
    name.startsWith('@') ? readdirSync(join(workspaceRoot, 'node_modules', name)).map((scoped) => `${name}/${scoped}`) : [name],
  ));
  // Platform-specific optional packages for other machines are in the lock but not installed.
  for (const name of productionPackages().filter((n) => installed.has(n))) {
    const link = join(root, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(workspaceRoot, 'node_modules', name), link, 'dir');
  }
}
