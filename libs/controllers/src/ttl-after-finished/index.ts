export { decideTtl, expiresAt, finishedAt } from './ttl';
export type { TtlDecision } from './ttl';
