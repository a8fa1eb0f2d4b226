// eslint.config.mjs enforces the dependency rules of CONVENTIONS.md through Nx project tags.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const transports = ['@nestjs/*', 'nats', '@grpc/*', 'etcd3'];

// constraints is the dependency table; a tag's row lists what it may import.
function constraints({ allowTesting }) {
  const testing = allowTesting ? ['type:testing'] : [];
  return [
    { sourceTag: 'type:core', onlyDependOnLibsWithTags: ['type:core', ...testing], bannedExternalImports: transports },
    { sourceTag: 'type:storage', onlyDependOnLibsWithTags: ['type:core', ...testing], bannedExternalImports: transports },
    { sourceTag: 'type:backend', onlyDependOnLibsWithTags: ['type:core', 'type:storage', 'type:telemetry', ...testing], bannedExternalImports: ['@nestjs/*', 'nats', '@grpc/*'] },
    { sourceTag: 'type:registry', onlyDependOnLibsWithTags: ['type:core', 'type:storage', ...testing], bannedExternalImports: transports },
    { sourceTag: 'type:server', onlyDependOnLibsWithTags: ['type:core', 'type:storage', 'type:registry', 'type:telemetry', ...testing], bannedExternalImports: transports },
    { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:core', 'type:client', ...testing], bannedExternalImports: transports },
    { sourceTag: 'type:proto', onlyDependOnLibsWithTags: [], bannedExternalImports: ['@nestjs/*', 'nats', 'etcd3'] },
    { sourceTag: 'type:telemetry', onlyDependOnLibsWithTags: [], bannedExternalImports: transports },
    { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:core', 'type:storage', 'type:proto', 'type:telemetry', ...testing], bannedExternalImports: ['@nestjs/*', 'etcd3'] },
    { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:core', 'type:storage', 'type:registry', 'type:server', 'type:adapter', 'type:telemetry', ...testing], bannedExternalImports: ['@nestjs/*', 'etcd3'] },
    { sourceTag: 'type:nest', onlyDependOnLibsWithTags: ['type:core', 'type:client', 'type:storage', 'type:registry', 'type:server', 'type:backend', 'type:adapter', 'type:telemetry', 'type:proto', 'type:composition', ...testing], bannedExternalImports: ['etcd3'] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:core', 'type:client', 'type:storage', 'type:registry', 'type:server', 'type:backend', 'type:adapter', 'type:telemetry', 'type:proto', 'type:composition', 'type:nest', 'type:testing'] },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:core', 'type:client', 'type:storage', 'type:registry', 'type:server', 'type:backend', 'type:adapter', 'type:telemetry', 'type:proto', 'type:composition', 'type:nest', ...testing], bannedExternalImports: ['etcd3'] },
    { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['*'] },
  ];
}

const boundaries = (allowTesting) => ({
  '@nx/enforce-module-boundaries': [
    'error',
    { enforceBuildableLibDependency: false, allow: [], depConstraints: constraints({ allowTesting }) },
  ],
});

export default [
  { ignores: ['**/node_modules', '**/dist', '**/tmp', '.nx/**', 'libs/proto/src/gen/**', '**/*.js', '**/*.mjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      ...boundaries(false),
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/conformance/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { ...boundaries(true), '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
