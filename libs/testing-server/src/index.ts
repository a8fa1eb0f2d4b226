export { startTestApiServer, TestApiServer, testTokens } from './api-server';
export { startPlinth, PlinthProcess } from './plinth';
export { kubectl, spawnKubectl, KubectlResult, kubectlBinary } from './kubectl';
