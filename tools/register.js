// register.js lets node run the TypeScript sources directly: swc compiles each file (with
// decorator metadata, which Nest's injection needs) and @plinth/* imports resolve through the
// paths of tsconfig.base.json.
const path = require('node:path');
const Module = require('node:module');
const { paths } = require('../tsconfig.base.json').compilerOptions;

const root = path.resolve(__dirname, '..');
const aliases = new Map(Object.entries(paths).map(([name, [target]]) => [name, path.join(root, target)]));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolvePlinthAlias(request, ...rest) {
  const target = aliases.get(request);
  return resolveFilename.call(this, target ?? request, ...rest);
};

process.env.SWC_NODE_PROJECT ??= path.join(root, 'tsconfig.base.json');
require('@swc-node/register');
