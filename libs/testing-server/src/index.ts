export { startTestApiServer, TestApiServer, testTokens } from './api-server';
export { startPlinth, PlinthProcess, adminClient } from './plinth';
export { kubectl, kubectlUntil, spawnKubectl, KubectlResult, kubectlBinary, kubectl132Binary } from './kubectl';
