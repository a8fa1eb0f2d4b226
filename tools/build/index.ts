export { compileProject, readProject, ProjectInfo } from './compile-project';
export { copyRuntimeFiles, imageEntryPoints } from './runtime-files';
export { imageNodeFlags, nodeFlagsOfEntrypoint } from './node-flags';
