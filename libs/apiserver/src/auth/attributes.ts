// attributesFor turns a request into the authorizer's attributes, after
// k8s.io/apiserver/pkg/endpoints/filters/authorization.go GetAuthorizerAttributes.
import { Attributes, nonResourceAttributes, resourceAttributes, UserInfo } from '@plinth/rbac';
import { RequestInfo } from '../request-info';

export function attributesFor(info: RequestInfo, user: UserInfo, servedGroup: string): Attributes {
  if (!info.isResourceRequest) return nonResourceAttributes({ user, verb: info.verb, path: info.path });
  return resourceAttributes({
    user,
    verb: info.verb,
    namespace: info.namespace,
    apiGroup: servedGroup,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  });
}
