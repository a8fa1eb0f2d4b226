// jest.config.js runs every spec of the workspace in one run, so the real etcd and nats-server
// that the harness starts in globalSetup are shared by all suites.
const { paths } = require('./tsconfig.base.json').compilerOptions;
const { swcOptions } = require('./tools/build/swc-options.js');

const moduleNameMapper = Object.fromEntries(
  Object.entries(paths).map(([name, [target]]) => [`^${name.replace('/', '\\/')}$`, `<rootDir>/${target}`]),
);

const swc = ['@swc/jest', swcOptions];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test', '<rootDir>/bench'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
