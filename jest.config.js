// jest.config.js splits the workspace's specs into three Jest projects, run together by `jest`
// (`npm test`) or one at a time with --selectProjects:
// - unit: the libraries' own specs that need no server process (`npm run test:unit`);
// - integration: the specs that run real etcd, nats-server, kubectl or an app as a process
//   (the storage and NATS adapters, the apps, the bench);
// - e2e: test/, across apps and with kubectl (Nx: `nx run e2e:e2e`).
// The globalSetup of the last two checks once per run that etcd and nats-server are installed.
const { paths } = require('./tsconfig.base.json').compilerOptions;
const { swcOptions } = require('./tools/build/swc-options.js');

const moduleNameMapper = Object.fromEntries(
  Object.entries(paths).map(([name, [target]]) => [`^${name.replace('/', '\\/')}$`, `<rootDir>/${target}`]),
);

// serverSpecs are the library specs that start a server process or a binary.
const serverSpecs = [
  '<rootDir>/libs/storage-etcd/',
  '<rootDir>/libs/storage-grpc/',
  '<rootDir>/libs/authz-nats/',
  '<rootDir>/libs/nest/src/storage/',
  '<rootDir>/libs/nest/src/authz/',
  '<rootDir>/libs/apiserver/src/openapi/kubectl-explain.spec.ts',
];

const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  moduleNameMapper,
};
const serversInstalled = '<rootDir>/libs/testing/src/jest/global-setup.ts';

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/libs'], testPathIgnorePatterns: ['/node_modules/', ...serverSpecs] },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/bench'],
      testMatch: [...serverSpecs.map((path) => (path.endsWith('/') ? `${path}**/*.spec.ts` : path)), '<rootDir>/apps/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'],
      globalSetup: serversInstalled,
    },
    { ...shared, displayName: 'e2e', roots: ['<rootDir>/test'], globalSetup: serversInstalled },
  ],
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
