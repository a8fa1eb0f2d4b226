// RequestScope is everything a resource handler needs about one request: the parsed request,
// the resource it addresses, its store, and how to answer.
import { IncomingMessage, ServerResponse } from 'node:http';
import { KubeObject } from '@plinth/api';
import { holdsExactIntegers, isStatusError, markExactRoot } from '@plinth/machinery';
import { UserInfo } from '@plinth/rbac';
import { fieldManagerName } from '@plinth/apply';
import { ResourceDefinition, ResourceStore } from '@plinth/registry';
import { ResourceRequestInfo } from './request-info';
import { Representation } from './negotiation';
import { ResponseOptions } from './http/respond';
import { ServerContext } from './server-context';
import { RequestContext } from './http/request-context';

export interface RequestScope {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  info: ResourceRequestInfo;
  def: ResourceDefinition;
  store: ResourceStore;
  // clientGroup is the group the client addressed: the definition's group or its k8s.io alias.
  clientGroup: string;
  representation: Representation;
  response: ResponseOptions;
  server: ServerContext;
  // user is who the request acts for (after impersonation).
  user: UserInfo;
  // context is done as kube-apiserver's request context is: the request timeout passed (its 504
  // is written) or the response closed. Work not yet started for the request is not started
  // then.
  context: RequestContext;
}

// clientApiVersion is the apiVersion written back to this client.
export function clientApiVersion(scope: RequestScope): string {
  return scope.clientGroup === '' ? scope.def.version : `${scope.clientGroup}/${scope.def.version}`;
}

// present rewrites an object for the client: its apiVersion in the group the client used.
export function present(scope: RequestScope, object: KubeObject): KubeObject {
  if (scope.clientGroup === scope.def.group) return object;
  const presented = { ...object, apiVersion: clientApiVersion(scope) };
  if (holdsExactIntegers(object)) markExactRoot(presented);
  return presented;
}

export function namespaceOf(scope: RequestScope): string | undefined {
  return scope.def.namespaced ? scope.info.namespace || undefined : undefined;
}

// fieldManagerOf names who a write is recorded for in managedFields: ?fieldManager, else the
// user agent's product name (as kube-apiserver derives it).
export function fieldManagerOf(scope: RequestScope, requested: string): { manager: string; apiVersion: string } {
  return { manager: fieldManagerName(requested, String(scope.req.headers['user-agent'] ?? '')), apiVersion: clientApiVersion(scope) };
}

// inClientGroup names the resource of an error in the group the client used: a request through
// a *.k8s.io alias is told `leases.coordination.k8s.io "x" not found`, as kube-apiserver tells it.
export function inClientGroup(scope: RequestScope, err: unknown): unknown {
  const { def, clientGroup } = scope;
  if (!isStatusError(err) || !def.group || clientGroup === def.group) return err;
  const status = err.errStatus;
  if (status.details?.group !== def.group) return err;
  status.details.group = clientGroup;
  if (status.message) status.message = status.message.split(`${def.resource}.${def.group}`).join(`${def.resource}.${clientGroup}`);
  err.message = status.message ?? err.message;
  return err;
}
