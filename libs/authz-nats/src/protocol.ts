// The authz service's wire contract over NATS, shared by both ends: the subjects, the queue
// group its replicas share, and the JSON messages. Every message carries the protocol version,
// so a gateway and an authz app of different releases refuse each other by name instead of
// misreading a message.
import { KubeObject } from '@plinth/api';
import { Status } from '@plinth/machinery';
import { Attributes, UserInfo } from '@plinth/rbac';

export const protocolVersion = 1;

// defaultSubjectPrefix roots the subjects: <prefix>.authorize, <prefix>.rules and
// <prefix>.policy-changed. Two control planes sharing one NATS use two prefixes.
export const defaultSubjectPrefix = 'plinth.authz';

// queueGroup is the group every authz replica subscribes in, so that each request is answered
// by one replica.
export const queueGroup = 'plinth-authz';

export interface Subjects {
  authorize: string;
  rules: string;
  rbacWrite: string;
  policyChanged: string;
}

// subjectNames are the subjects under the prefix: the message patterns authz's handlers take.
export const subjectNames: Subjects = { authorize: 'authorize', rules: 'rules', rbacWrite: 'rbac-write', policyChanged: 'policy-changed' };

export function subjectsFor(prefix: string = defaultSubjectPrefix): Subjects {
  return {
    authorize: `${prefix}.${subjectNames.authorize}`,
    rules: `${prefix}.${subjectNames.rules}`,
    rbacWrite: `${prefix}.${subjectNames.rbacWrite}`,
    policyChanged: `${prefix}.${subjectNames.policyChanged}`,
  };
}

// RbacWriteRequest asks for RBAC escalation prevention on a role or binding write; the result
// is the refusal's Status, or null.
export interface RbacWriteRequest {
  version: number;
  kind: string;
  user: UserInfo;
  object: KubeObject;
  old: KubeObject | null;
  namespace: string;
  requestName: string;
}

export type RbacWriteResult = Status | null;

export interface AuthorizeRequest {
  version: number;
  attributes: Attributes;
}

export interface RulesReviewRequest {
  version: number;
  user: UserInfo;
  namespace: string;
}

// Reply is the answer to either request: the result, or the error the authorizer (or the
// decoding of the request) failed with.
export type Reply<T> = { version: number; result: T } | { version: number; error: { message: string } };

export interface PolicyChanged {
  version: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encode(message: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(message));
}

// ProtocolError is a message that does not follow this contract.
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

// decode parses a message and checks its version.
export function decode(data: Uint8Array): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(decoder.decode(data));
  } catch (err) {
    throw new ProtocolError(`malformed message: ${(err as Error).message}`);
  }
  if (!isRecord(message)) throw new ProtocolError('malformed message: not a JSON object');
  if (message.version !== protocolVersion) {
    throw new ProtocolError(`unsupported protocol version ${JSON.stringify(message.version)}: this end speaks version ${protocolVersion}`);
  }
  return message;
}

export function decodeAuthorizeRequest(data: Uint8Array): AuthorizeRequest {
  const message = decode(data);
  const attributes = message.attributes;
  if (!isRecord(attributes)) throw new ProtocolError('attributes: required');
  requireUser(attributes.user, 'attributes.user');
  for (const field of ['verb', 'namespace', 'apiGroup', 'apiVersion', 'resource', 'subresource', 'name', 'path'] as const) {
    if (typeof attributes[field] !== 'string') throw new ProtocolError(`attributes.${field}: must be a string`);
  }
  if (typeof attributes.isResourceRequest !== 'boolean') throw new ProtocolError('attributes.isResourceRequest: must be a boolean');
  return message as unknown as AuthorizeRequest;
}

export function decodeRulesReviewRequest(data: Uint8Array): RulesReviewRequest {
  const message = decode(data);
  requireUser(message.user, 'user');
  if (typeof message.namespace !== 'string') throw new ProtocolError('namespace: must be a string');
  return message as unknown as RulesReviewRequest;
}

export function decodeRbacWriteRequest(data: Uint8Array): RbacWriteRequest {
  const message = decode(data);
  requireUser(message.user, 'user');
  if (typeof message.kind !== 'string') throw new ProtocolError('kind: must be a string');
  if (!isRecord(message.object)) throw new ProtocolError('object: required');
  if (typeof message.namespace !== 'string' || typeof message.requestName !== 'string') throw new ProtocolError('namespace and requestName: must be strings');
  return message as unknown as RbacWriteRequest;
}

// decodeReply returns the result of a reply, or throws the error it carries.
export function decodeReply<T>(data: Uint8Array): T {
  const message = decode(data);
  if (isRecord(message.error)) throw new RemoteAuthorizerError(`the authorization service failed: ${String(message.error.message)}`);
  if (!('result' in message)) throw new ProtocolError('reply carries neither a result nor an error');
  return message.result as T;
}

// RemoteAuthorizerError is an error the authz service answered with.
export class RemoteAuthorizerError extends Error {
  override name = 'RemoteAuthorizerError';
}

function requireUser(user: unknown, path: string): void {
  if (!isRecord(user)) throw new ProtocolError(`${path}: required`);
  if (typeof user.name !== 'string' || typeof user.uid !== 'string') throw new ProtocolError(`${path}: name and uid must be strings`);
  if (!Array.isArray(user.groups) || !user.groups.every((g) => typeof g === 'string')) throw new ProtocolError(`${path}.groups: must be a list of strings`);
  if (!isRecord(user.extra)) throw new ProtocolError(`${path}.extra: must be an object`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
