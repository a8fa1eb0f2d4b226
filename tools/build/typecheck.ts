// typecheck.ts is the typecheck target of every project (nx.json's targetDefaults):
//   node -r ./tools/register.js tools/build/typecheck.ts PROJECT_ROOT
// It checks the project's files, specs included, under tsconfig.json's options; the libraries
// they import are checked with them, as `tsc -p tsconfig.json` (npm run typecheck) checks all.
import { relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

const workspaceRoot = resolve(__dirname, '../..');
const projectRoot = process.argv[2];
if (!projectRoot) {
  console.error('usage: tools/build/typecheck.ts PROJECT_ROOT');
  process.exit(2);
}

const config = ts.getParsedCommandLineOfConfigFile(resolve(workspaceRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) });
if (!config) process.exit(2);
const prefix = resolve(workspaceRoot, projectRoot) + sep;
const rootNames = config.fileNames.filter((file) => resolve(file).startsWith(prefix));
const program = ts.createProgram({ rootNames, options: config.options });
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) fail(diagnostics);
console.log(`${projectRoot}: ${rootNames.length} files type-check`);

function fail(diagnostics: readonly ts.Diagnostic[]): never {
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => workspaceRoot,
    getNewLine: () => '\n',
  };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  console.error(`${relative(workspaceRoot, prefix) || '.'}: ${diagnostics.length} type errors`);
  process.exit(1);
}
