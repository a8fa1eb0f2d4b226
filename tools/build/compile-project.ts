// compile-project.ts turns one Nx project's TypeScript into the JavaScript that `node` runs
// alone: swc with the options jest uses (decorator metadata included), each file on its own,
// and the @plinth/* aliases of tsconfig.base.json rewritten to relative paths. The output mirrors
// the workspace (dist/libs/machinery/src/index.js), so a relative path that is right between
// two sources is right between their outputs. Type errors are the typecheck target's business.
import { transformFileSync } from '@swc/core';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { swcOptions } from './swc-options';

export interface ProjectInfo {
  readonly name: string;
  readonly root: string;
  readonly sourceRoot: string;
  readonly tags: readonly string[];
}

// readProject reads the project.json of the project at projectRoot (relative to the workspace).
export function readProject(workspaceRoot: string, projectRoot: string): ProjectInfo {
  const config = JSON.parse(readFileSync(join(workspaceRoot, projectRoot, 'project.json'), 'utf8'));
  return { name: config.name, root: projectRoot, sourceRoot: config.sourceRoot ?? join(projectRoot, 'src'), tags: config.tags ?? [] };
}

// compileProject writes the project's compiled sources under outRoot (replacing what an earlier
// build left there) and returns the paths it wrote. Specs and testdata are left out; a JSON
// document beside the sources (data a source imports) is copied as it is, since node requires it
// by its own name.
export function compileProject(workspaceRoot: string, projectRoot: string, outRoot: string): string[] {
  const project = readProject(workspaceRoot, projectRoot);
  const options = compilerOptions(workspaceRoot);
  rmSync(join(outRoot, project.root), { recursive: true, force: true });
  const written: string[] = [];
  for (const source of sourceFiles(join(workspaceRoot, project.sourceRoot))) {
    if (source.endsWith('.json')) {
      const target = join(outRoot, relative(workspaceRoot, source));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(source, target);
      written.push(target);
      continue;
    }
    const { code } = transformFileSync(source, options);
    const unresolved = /require\("(@plinth\/[^"]*)"\)/.exec(code);
    if (unresolved) throw new Error(`${relative(workspaceRoot, source)}: ${unresolved[1]} is not an alias of tsconfig.base.json`);
    const target = join(outRoot, relative(workspaceRoot, source)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
    written.push(target);
  }
  return written;
}

function compilerOptions(workspaceRoot: string) {
  const { paths } = JSON.parse(readFileSync(join(workspaceRoot, 'tsconfig.base.json'), 'utf8')).compilerOptions;
  return {
    ...swcOptions,
    jsc: { ...swcOptions.jsc, baseUrl: workspaceRoot, paths },
    sourceMaps: false,
    swcrc: false,
    configFile: false,
  };
}

// sourceFiles lists the TypeScript and JSON data that ship: no specs, declarations or test data.
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testdata' ? [] : sourceFiles(path);
    const typescript = entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts');
    return typescript || entry.name.endsWith('.json') ? [path] : [];
  });
}
