// The build target's compiler and the image's file selection (tools/build), on a small workspace
// of their own: aliases become relative paths that node follows, specs and test data stay out,
// a rebuild drops what its sources no longer have, and the image takes what the entry points
// load and refuses a build that misses a file they need.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { compileProject, copyRuntimeFiles, imageEntryPoints } from '@plinth/build-tools';

describe('tools/build', () => {
  let workspace: string;
  let out: string;

  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  };
  const project = (root: string, name: string, tag: string) =>
    write(`${root}/project.json`, JSON.stringify({ name, sourceRoot: `${root}/src`, tags: [tag] }));
  const built = (files: string[]) => files.map((f) => relative(out, f)).sort();

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'plinth-build-ws-'));
    out = mkdtempSync(join(tmpdir(), 'plinth-build-out-'));
    write('tsconfig.base.json', JSON.stringify({ compilerOptions: { paths: { '@plinth/greeting': ['libs/greeting/src/index.ts'] } } }));
    project('libs/greeting', 'greeting', 'type:core');
    write('libs/greeting/src/index.ts', "export { greet } from './greet';\n");
    write('libs/greeting/src/greet.ts', 'export const greet = (name: string): string => `hello, ${name}`;\n');
    write('libs/greeting/src/unused.ts', 'export const unused = 1;\n');
    write('libs/greeting/src/greet.spec.ts', "it('greets', () => undefined);\n");
    write('libs/greeting/src/testdata/fixture.ts', 'export const fixture = 1;\n');
    project('apps/hello', 'hello', 'type:app');
    write('apps/hello/src/main.ts', "import { greet } from '@plinth/greeting';\n\nconst who: string = 'image';\nconsole.log(greet(who));\n");
  });

  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('compiles a project to JavaScript beside its workspace path, without specs or test data', () => {
    expect(built(compileProject(workspace, 'libs/greeting', out))).toEqual(['libs/greeting/src/greet.js', 'libs/greeting/src/index.js', 'libs/greeting/src/unused.js']);
    expect(built(compileProject(workspace, 'apps/hello', out))).toEqual(['apps/hello/src/main.js']);
    expect(execFileSync(process.execPath, [join(out, 'apps/hello/src/main.js')], { encoding: 'utf8', env: {} })).toBe('hello, image\n');
  });

  it('drops on a rebuild the output of a source that is gone', () => {
    compileProject(workspace, 'libs/greeting', out);
    rmSync(join(workspace, 'libs/greeting/src/unused.ts'));
    compileProject(workspace, 'libs/greeting', out);
    expect(existsSync(join(out, 'libs/greeting/src/unused.js'))).toBe(false);
    expect(existsSync(join(out, 'libs/greeting/src/greet.js'))).toBe(true);
  });

  it('refuses an @plinth import that tsconfig.base.json does not map', () => {
    write('apps/hello/src/main.ts', "import { nothing } from '@plinth/nowhere';\n\nconsole.log(nothing);\n");
    expect(() => compileProject(workspace, 'apps/hello', out)).toThrow('apps/hello/src/main.ts: @plinth/nowhere is not an alias of tsconfig.base.json');
  });

  it("takes into the image the files the apps' entry points load", () => {
    compileProject(workspace, 'libs/greeting', out);
    compileProject(workspace, 'apps/hello', out);
    const entryPoints = imageEntryPoints(workspace, ['apps/hello', 'libs/greeting']);
    expect(entryPoints).toEqual(['apps/hello/src/main.js']);
    const image = join(out, 'image');
    expect(copyRuntimeFiles(out, entryPoints, image)).toEqual(['apps/hello/src/main.js', 'libs/greeting/src/greet.js', 'libs/greeting/src/index.js']);
    expect(execFileSync(process.execPath, ['apps/hello/src/main.js'], { cwd: image, encoding: 'utf8', env: {} })).toBe('hello, image\n');
  });

  it("takes an app's worker-thread modules (*.worker.ts) as entry points too", () => {
    write('apps/hello/src/greeter.worker.ts', "import { greet } from '@plinth/greeting';\n\nconsole.log(greet('worker'));\n");
    compileProject(workspace, 'libs/greeting', out);
    compileProject(workspace, 'apps/hello', out);
    const entryPoints = imageEntryPoints(workspace, ['apps/hello', 'libs/greeting']);
    expect(entryPoints).toEqual(['apps/hello/src/main.js', 'apps/hello/src/greeter.worker.js']);
    const image = join(out, 'image');
    expect(copyRuntimeFiles(out, entryPoints, image)).toEqual(['apps/hello/src/greeter.worker.js', 'apps/hello/src/main.js', 'libs/greeting/src/greet.js', 'libs/greeting/src/index.js']);
    expect(execFileSync(process.execPath, ['apps/hello/src/greeter.worker.js'], { cwd: image, encoding: 'utf8', env: {} })).toBe('hello, worker\n');
  });

  it('ships a JSON document a source imports, in the build and in the image', () => {
    write('libs/greeting/src/words.json', JSON.stringify({ hello: 'hello' }));
    write('libs/greeting/src/greet.ts', "import words from './words.json';\n\nexport const greet = (name: string): string => `${words.hello}, ${name}`;\n");
    expect(built(compileProject(workspace, 'libs/greeting', out))).toEqual(['libs/greeting/src/greet.js', 'libs/greeting/src/index.js', 'libs/greeting/src/unused.js', 'libs/greeting/src/words.json']);
    compileProject(workspace, 'apps/hello', out);
    const image = join(out, 'image');
    expect(copyRuntimeFiles(out, ['apps/hello/src/main.js'], image)).toEqual(['apps/hello/src/main.js', 'libs/greeting/src/greet.js', 'libs/greeting/src/index.js', 'libs/greeting/src/words.json']);
    expect(execFileSync(process.execPath, ['apps/hello/src/main.js'], { cwd: image, encoding: 'utf8', env: {} })).toBe('hello, image\n');
  });

  it('refuses an image whose entry point needs a file the build did not make', () => {
    compileProject(workspace, 'apps/hello', out);
    expect(() => copyRuntimeFiles(out, ['apps/hello/src/main.js'], join(out, 'image'))).toThrow('apps/hello/src/main.js requires ../../../libs/greeting/src, which was not built');
    expect(() => copyRuntimeFiles(out, ['apps/absent/src/main.js'], join(out, 'image'))).toThrow('apps/absent/src/main.js was not built');
  });
});
