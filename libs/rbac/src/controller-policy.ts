// The ClusterRoles and ClusterRoleBindings of the controllers Plinth runs, from
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go (v1.28): each controller
// acts as the service account kube-system/<name>, bound to system:controller:<name>.
import { serviceAccountUsername } from './attributes';
import {
  appsGroup,
  batchGroup,
  clusterRole,
  clusterRoleBinding,
  eventsGroup,
  extensionsGroup,
  legacyGroup,
  serviceAccountSubject,
} from './bootstrap-groups';
import { newRule } from './rule-builder';
import { ClusterRole, ClusterRoleBinding, PolicyRule, rbacGroup } from './types';

export const ControllerRolePrefix = 'system:controller:';
export const ControllerServiceAccountNamespace = 'kube-system';

export const ClusterRoleAggregationController = 'clusterrole-aggregation-controller';
export const DaemonSetController = 'daemon-set-controller';
export const GenericGarbageCollector = 'generic-garbage-collector';
export const JobController = 'job-controller';
export const NamespaceController = 'namespace-controller';
export const ServiceAccountController = 'service-account-controller';
export const TTLAfterFinishedController = 'ttl-after-finished-controller';

// controllerUsername is the user a controller acts as: system:serviceaccount:kube-system:<name>.
export function controllerUsername(controller: string): string {
  return serviceAccountUsername(ControllerServiceAccountNamespace, controller);
}

// eventsRule lets a controller record events.
export function eventsRule(): PolicyRule {
  return newRule('create', 'update', 'patch').groups(legacyGroup, eventsGroup).resources('events').rule();
}

function controllerRules(): Record<string, PolicyRule[]> {
  return {
    [ClusterRoleAggregationController]: [
      // the controller must have full permissions on clusterroles to be able to mutate them in any way
      newRule('escalate', 'get', 'list', 'watch', 'update', 'patch').groups(rbacGroup).resources('clusterroles').rule(),
    ],
    [DaemonSetController]: [
      newRule('get', 'list', 'watch').groups(extensionsGroup, appsGroup).resources('daemonsets').rule(),
      newRule('update').groups(extensionsGroup, appsGroup).resources('daemonsets/status').rule(),
      newRule('update').groups(extensionsGroup, appsGroup).resources('daemonsets/finalizers').rule(),
      newRule('list', 'watch').groups(legacyGroup).resources('nodes').rule(),
      newRule('list', 'watch', 'create', 'delete', 'patch').groups(legacyGroup).resources('pods').rule(),
      newRule('create').groups(legacyGroup).resources('pods/binding').rule(),
      newRule('get', 'list', 'watch', 'create', 'delete', 'update', 'patch').groups(appsGroup).resources('controllerrevisions').rule(),
      eventsRule(),
    ],
    [GenericGarbageCollector]: [
      // the GC runs list/watches, selective gets, and updates against any resource
      newRule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('*').resources('*').rule(),
      eventsRule(),
    ],
    [JobController]: [
      newRule('get', 'list', 'watch', 'update', 'patch').groups(batchGroup).resources('jobs').rule(),
      newRule('update').groups(batchGroup).resources('jobs/status').rule(),
      newRule('update').groups(batchGroup).resources('jobs/finalizers').rule(),
      newRule('list', 'watch', 'create', 'delete', 'patch').groups(legacyGroup).resources('pods').rule(),
      eventsRule(),
    ],
    [NamespaceController]: [
      newRule('get', 'list', 'watch', 'delete').groups(legacyGroup).resources('namespaces').rule(),
      newRule('update').groups(legacyGroup).resources('namespaces/finalize', 'namespaces/status').rule(),
      newRule('get', 'list', 'delete', 'deletecollection').groups('*').resources('*').rule(),
    ],
    [ServiceAccountController]: [newRule('create').groups(legacyGroup).resources('serviceaccounts').rule(), eventsRule()],
    [TTLAfterFinishedController]: [newRule('get', 'list', 'watch', 'delete').groups(batchGroup).resources('jobs').rule(), eventsRule()],
  };
}

// controllerRoles lists system:controller:<name> for each controller, in Kubernetes' order.
export function controllerRoles(): ClusterRole[] {
  return Object.entries(controllerRules()).map(([name, rules]) => clusterRole({ name: ControllerRolePrefix + name, rules }));
}

// controllerRoleBindings binds each controller role to the controller's service account.
export function controllerRoleBindings(): ClusterRoleBinding[] {
  return Object.keys(controllerRules()).map((name) =>
    clusterRoleBinding(ControllerRolePrefix + name, [serviceAccountSubject(ControllerServiceAccountNamespace, name)]),
  );
}
