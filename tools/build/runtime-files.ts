// runtime-files.ts picks, out of a build output, the files that the apps' entry points load:
// the image holds those and nothing else (no specs, no sources, no test harness, no library
// file that nothing requires).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { readProject } from './compile-project';

// imageEntryPoints are the compiled main.js of the apps (projects tagged type:app), relative
// to the workspace, which is also how the image's entry point (`node ENTRY_POINT`) names them,
// and the modules an app starts on worker threads (its *.worker.ts, which no require reaches).
export function imageEntryPoints(workspaceRoot: string, appRoots: readonly string[]): string[] {
  return appRoots
    .map((root) => readProject(workspaceRoot, root))
    .filter((project) => project.tags.includes('type:app'))
    .flatMap((project) => [
      join(project.sourceRoot, 'main.js'),
      ...readdirSync(join(workspaceRoot, project.sourceRoot))
        .filter((name) => name.endsWith('.worker.ts'))
        .sort()
        .map((name) => join(project.sourceRoot, name.replace(/\.ts$/, '.js'))),
    ]);
}

// copyRuntimeFiles copies from buildRoot into outRoot every file reachable from the entry points
// through relative requires, and returns them relative to outRoot. A relative require that
// names no compiled file fails the copy: the build is incomplete.
export function copyRuntimeFiles(buildRoot: string, entryPoints: readonly string[], outRoot: string): string[] {
  const seen = new Set<string>();
  const pending = entryPoints.map((entry) => resolve(buildRoot, entry));
  for (const missing of pending.filter((file) => !existsSync(file))) throw new Error(`${relative(buildRoot, missing)} was not built`);
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const request of relativeRequires(readFileSync(file, 'utf8'))) pending.push(resolveCompiled(buildRoot, file, request));
  }
  const copied = [...seen].map((file) => relative(buildRoot, file)).sort();
  for (const file of copied) {
    mkdirSync(dirname(join(outRoot, file)), { recursive: true });
    copyFileSync(join(buildRoot, file), join(outRoot, file));
  }
  return copied;
}

function relativeRequires(code: string): string[] {
  return [...code.matchAll(/\brequire\("(\.\.?\/[^"]*|\.\.?)"\)/g)].map((match) => match[1]);
}

// resolveCompiled resolves a relative require as node does for CommonJS files: the file, with
// .js added, or the directory's index.js.
function resolveCompiled(buildRoot: string, from: string, request: string): string {
  const base = resolve(dirname(from), request);
  for (const candidate of [base, `${base}.js`, join(base, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(buildRoot, from)} requires ${request}, which was not built`);
}
