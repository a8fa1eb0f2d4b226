// swc-options.js is how Plinth's TypeScript becomes JavaScript wherever swc compiles it: in jest
// and in the build (tools/build). Nest's constructor injection needs the decorator metadata.
const swcOptions = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
  module: { type: 'commonjs' },
};

module.exports = { swcOptions };
