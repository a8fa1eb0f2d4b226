// The default ClusterRoles and ClusterRoleBindings of plugin/pkg/auth/authorizer/rbac/
// bootstrappolicy/policy.go (v1.28), with API group names as Plinth serves them: cluster-admin
// for system:masters; admin, edit and view built by aggregation from system:aggregate-to-*;
// discovery, basic-user and public-info-viewer for everyone; a node role; the controller
// manager's own role; a role for the node simulator's service account; monitoring; the roles of
// the cluster's other components (component-policy.ts); and a role per controller Plinth runs.
import { AllAuthenticated, AllUnauthenticated, KubeControllerManager, MonitoringGroup, NodesGroup, SystemPrivilegedGroup } from './attributes';
import { AggregateToAdminLabel, AggregateToEditLabel, AggregateToViewLabel } from '@plinth/api';
import {
  appsGroup,
  authenticationGroup,
  authorizationGroup,
  autoscalingGroup,
  batchGroup,
  certificatesGroup,
  clusterRole,
  clusterRoleBinding,
  coordinationGroup,
  discoveryGroup,
  extensionsGroup,
  groupSubject,
  legacyGroup,
  serviceAccountSubject,
  userSubject,
  networkingGroup,
  nodeGroup,
  policyGroup,
  Read,
  ReadWrite,
  storageGroup,
  Write,
} from './bootstrap-groups';
import { componentClusterRoleBindings, componentClusterRoles, componentRoleBindings, componentRoles } from './component-policy';
import { ControllerServiceAccountNamespace, controllerRoleBindings, controllerRoles, eventsRule } from './controller-policy';
import { PolicyContents } from './policy-store';
import { newRule } from './rule-builder';
import { ClusterRole, ClusterRoleBinding, PolicyRule, rbacGroup, Role, RoleBinding } from './types';

export const NodeRoleName = 'system:node';
export const KubeControllerManagerRoleName = 'system:kube-controller-manager';
// The node simulator plays kubelets and a scheduler as the service account
// kube-system/node-simulator, bound to system:node-simulator.
export const NodeSimulatorRoleName = 'system:node-simulator';
export const NodeSimulatorServiceAccount = 'node-simulator';

// kubeControllerManagerRules is what the controller manager's own identity needs: leader
// election, service accounts and their tokens for the controllers' identities, and the shared
// informers' list and watch.
export function kubeControllerManagerRules(): PolicyRule[] {
  return [
    eventsRule(),
    // Needed for leader election.
    newRule('create').groups(coordinationGroup).resources('leases').rule(),
    newRule('get', 'update').groups(coordinationGroup).resources('leases').names('kube-controller-manager').rule(),
    // Fundamental resources.
    newRule('create').groups(legacyGroup).resources('secrets', 'serviceaccounts').rule(),
    newRule('delete').groups(legacyGroup).resources('secrets').rule(),
    newRule('get').groups(legacyGroup).resources('configmaps', 'namespaces', 'secrets', 'serviceaccounts').rule(),
    newRule('update').groups(legacyGroup).resources('secrets', 'serviceaccounts').rule(),
    // Needed to check API access. These creates are non-mutating.
    newRule('create').groups(authenticationGroup).resources('tokenreviews').rule(),
    newRule('create').groups(authorizationGroup).resources('subjectaccessreviews').rule(),
    // Needed for all shared informers.
    newRule('list', 'watch').groups('*').resources('*').rule(),
    newRule('create').groups(legacyGroup).resources('serviceaccounts/token').rule(),
  ];
}

// nodeSimulatorRules is what simulated kubelets and their scheduler do: register nodes and report
// their status, bind pending pods, report pod status and confirm pod deletions.
export function nodeSimulatorRules(): PolicyRule[] {
  return [
    newRule('get', 'list', 'watch', 'create', 'update', 'patch').groups(legacyGroup).resources('nodes').rule(),
    newRule('update', 'patch').groups(legacyGroup).resources('nodes/status').rule(),
    newRule('get', 'list', 'watch', 'delete').groups(legacyGroup).resources('pods').rule(),
    newRule('update', 'patch').groups(legacyGroup).resources('pods/status').rule(),
    newRule('create').groups(legacyGroup).resources('pods/binding').rule(),
    eventsRule(),
  ];
}

// nodeRules is NodeRules: what a node agent needs to run the pods bound to it.
export function nodeRules(): PolicyRule[] {
  return [
    // Needed to check API access. These creates are non-mutating.
    newRule('create').groups(authenticationGroup).resources('tokenreviews').rule(),
    newRule('create').groups(authorizationGroup).resources('subjectaccessreviews', 'localsubjectaccessreviews').rule(),
    // Needed to build serviceLister, to populate env vars for services.
    newRule(...Read).groups(legacyGroup).resources('services').rule(),
    // Nodes can register Node API objects and report status.
    newRule('create', 'get', 'list', 'watch').groups(legacyGroup).resources('nodes').rule(),
    newRule('update', 'patch').groups(legacyGroup).resources('nodes/status').rule(),
    newRule('update', 'patch').groups(legacyGroup).resources('nodes').rule(),
    newRule('create', 'update', 'patch').groups(legacyGroup).resources('events').rule(),
    newRule(...Read).groups(legacyGroup).resources('pods').rule(),
    // Needed for the node to create/delete mirror pods.
    newRule('create', 'delete').groups(legacyGroup).resources('pods').rule(),
    // Needed for the node to report status of pods it is running.
    newRule('update', 'patch').groups(legacyGroup).resources('pods/status').rule(),
    // Needed for the node to create pod evictions.
    newRule('create').groups(legacyGroup).resources('pods/eviction').rule(),
    newRule('get', 'list', 'watch').groups(legacyGroup).resources('secrets', 'configmaps').rule(),
    newRule('get').groups(legacyGroup).resources('persistentvolumeclaims', 'persistentvolumes').rule(),
    newRule('get').groups(legacyGroup).resources('endpoints').rule(),
    newRule('create', 'get', 'list', 'watch').groups(certificatesGroup).resources('certificatesigningrequests').rule(),
    newRule('get', 'create', 'update', 'patch', 'delete').groups(coordinationGroup).resources('leases').rule(),
    newRule('get').groups(storageGroup).resources('volumeattachments').rule(),
    newRule('create').groups(legacyGroup).resources('serviceaccounts/token').rule(),
    newRule('get', 'update', 'patch').groups(legacyGroup).resources('persistentvolumeclaims/status').rule(),
    newRule('get', 'watch', 'list').groups(storageGroup).resources('csidrivers').rule(),
    newRule('get', 'create', 'update', 'patch', 'delete').groups(storageGroup).resources('csinodes').rule(),
    newRule('get', 'list', 'watch').groups(nodeGroup).resources('runtimeclasses').rule(),
  ];
}

function aggregateToEditRules(): PolicyRule[] {
  return [
    // Allow read on escalating resources.
    newRule(...Read).groups(legacyGroup).resources('pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy').rule(),
    newRule('impersonate').groups(legacyGroup).resources('serviceaccounts').rule(),
    newRule(...Write).groups(legacyGroup).resources('pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward').rule(),
    newRule('create').groups(legacyGroup).resources('pods/eviction').rule(),
    newRule(...Write)
      .groups(legacyGroup)
      .resources('replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events')
      .rule(),
    newRule('create').groups(legacyGroup).resources('serviceaccounts/token').rule(),
    newRule(...Write)
      .groups(appsGroup)
      .resources('statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale')
      .rule(),
    newRule(...Write).groups(autoscalingGroup).resources('horizontalpodautoscalers').rule(),
    newRule(...Write).groups(batchGroup).resources('jobs', 'cronjobs').rule(),
    newRule(...Write)
      .groups(extensionsGroup)
      .resources('daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies')
      .rule(),
    newRule(...Write).groups(policyGroup).resources('poddisruptionbudgets').rule(),
    newRule(...Write).groups(networkingGroup).resources('networkpolicies', 'ingresses').rule(),
    newRule(...ReadWrite).groups(coordinationGroup).resources('leases').rule(),
  ];
}

function aggregateToViewRules(): PolicyRule[] {
  return [
    newRule(...Read)
      .groups(legacyGroup)
      .resources('pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps')
      .rule(),
    newRule(...Read)
      .groups(legacyGroup)
      .resources('limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log')
      .rule(),
    // Read access to namespaces at the namespace scope means you can read *this* namespace.
    newRule(...Read).groups(legacyGroup).resources('namespaces').rule(),
    newRule(...Read).groups(discoveryGroup).resources('endpointslices').rule(),
    newRule(...Read)
      .groups(appsGroup)
      .resources(
        'controllerrevisions',
        'statefulsets',
        'statefulsets/status',
        'statefulsets/scale',
        'daemonsets',
        'daemonsets/status',
        'deployments',
        'deployments/status',
        'deployments/scale',
        'replicasets',
        'replicasets/status',
        'replicasets/scale',
      )
      .rule(),
    newRule(...Read).groups(autoscalingGroup).resources('horizontalpodautoscalers', 'horizontalpodautoscalers/status').rule(),
    newRule(...Read).groups(batchGroup).resources('jobs', 'cronjobs', 'cronjobs/status', 'jobs/status').rule(),
    newRule(...Read)
      .groups(extensionsGroup)
      .resources(
        'daemonsets',
        'daemonsets/status',
        'deployments',
        'deployments/scale',
        'deployments/status',
        'ingresses',
        'ingresses/status',
        'replicasets',
        'replicasets/scale',
        'replicasets/status',
        'replicationcontrollers/scale',
        'networkpolicies',
      )
      .rule(),
    newRule(...Read).groups(policyGroup).resources('poddisruptionbudgets', 'poddisruptionbudgets/status').rule(),
    newRule(...Read).groups(networkingGroup).resources('ingresses', 'ingresses/status', 'networkpolicies').rule(),
  ];
}

// defaultClusterRoles are the roles of policy.go's ClusterRoles that Plinth keeps, in its order.
function defaultClusterRoles(): ClusterRole[] {
  return [
    // a "root" role which can do absolutely anything
    clusterRole({ name: 'cluster-admin', rules: [newRule('*').groups('*').resources('*').rule(), newRule('*').urls('*').rule()] }),
    // just enough to determine if the server is ready and discover API versions for negotiation
    clusterRole({
      name: 'system:discovery',
      rules: [newRule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*').rule()],
    }),
    // a role which provides minimal read access to the monitoring endpoints
    clusterRole({
      name: 'system:monitoring',
      rules: [newRule('get').urls('/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*').rule()],
    }),
    // minimal access for a "normal" user to learn about themselves
    clusterRole({
      name: 'system:basic-user',
      rules: [
        newRule('create').groups(authorizationGroup).resources('selfsubjectaccessreviews', 'selfsubjectrulesreviews').rule(),
        newRule('create').groups(authenticationGroup).resources('selfsubjectreviews').rule(),
      ],
    }),
    // just enough to read insensitive cluster information
    clusterRole({ name: 'system:public-info-viewer', rules: [newRule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/').rule()] }),
    // a namespace level admin: edit plus the power to grant permissions to other users
    clusterRole({ name: 'admin', aggregateLabel: AggregateToAdminLabel }),
    // a namespace level editor: all user level actions in a namespace
    clusterRole({ name: 'edit', labels: { [AggregateToAdminLabel]: 'true' }, aggregateLabel: AggregateToEditLabel }),
    // namespace level viewing: read-only access to non-escalating resources
    clusterRole({ name: 'view', labels: { [AggregateToEditLabel]: 'true' }, aggregateLabel: AggregateToViewLabel }),
    clusterRole({
      name: 'system:aggregate-to-admin',
      labels: { [AggregateToAdminLabel]: 'true' },
      rules: [
        newRule('create').groups(authorizationGroup).resources('localsubjectaccessreviews').rule(),
        newRule(...ReadWrite).groups(rbacGroup).resources('roles', 'rolebindings').rule(),
      ],
    }),
    clusterRole({ name: 'system:aggregate-to-edit', labels: { [AggregateToEditLabel]: 'true' }, rules: aggregateToEditRules() }),
    clusterRole({ name: 'system:aggregate-to-view', labels: { [AggregateToViewLabel]: 'true' }, rules: aggregateToViewRules() }),
    clusterRole({ name: NodeRoleName, rules: nodeRules() }),
    clusterRole({ name: KubeControllerManagerRoleName, rules: kubeControllerManagerRules() }),
    clusterRole({ name: NodeSimulatorRoleName, rules: nodeSimulatorRules() }),
  ];
}

// defaultClusterRoleBindings are ClusterRoleBindings() of policy.go for those roles. Kubernetes
// binds system:node to no one, leaving nodes to the Node authorizer; Plinth has none, so it binds
// system:node to the system:nodes group its node simulator authenticates in.
function defaultClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    clusterRoleBinding('cluster-admin', [groupSubject(SystemPrivilegedGroup)]),
    clusterRoleBinding('system:monitoring', [groupSubject(MonitoringGroup)]),
    clusterRoleBinding('system:discovery', [groupSubject(AllAuthenticated)]),
    clusterRoleBinding('system:basic-user', [groupSubject(AllAuthenticated)]),
    clusterRoleBinding('system:public-info-viewer', [groupSubject(AllAuthenticated), groupSubject(AllUnauthenticated)]),
    clusterRoleBinding(NodeRoleName, [groupSubject(NodesGroup)]),
    clusterRoleBinding(KubeControllerManagerRoleName, [userSubject(KubeControllerManager)]),
    clusterRoleBinding(NodeSimulatorRoleName, [serviceAccountSubject(ControllerServiceAccountNamespace, NodeSimulatorServiceAccount)]),
  ];
}

// bootstrapClusterRoles returns new copies of every default ClusterRole, controllers' included.
// The aggregated roles (admin, edit, view) come without rules; the aggregation controller fills
// them in (see aggregateClusterRole).
export function bootstrapClusterRoles(): ClusterRole[] {
  return [...defaultClusterRoles(), ...componentClusterRoles(), ...controllerRoles()];
}

export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [...defaultClusterRoleBindings(), ...componentClusterRoleBindings(), ...controllerRoleBindings()];
}

// bootstrapRoles and bootstrapRoleBindings are the default Roles of system namespaces.
export function bootstrapRoles(): Role[] {
  return componentRoles();
}

export function bootstrapRoleBindings(): RoleBinding[] {
  return componentRoleBindings();
}

// bootstrapPolicy is the whole default policy, as RbacPolicy takes it.
export function bootstrapPolicy(): PolicyContents {
  return { roles: bootstrapRoles(), clusterRoles: bootstrapClusterRoles(), roleBindings: bootstrapRoleBindings(), clusterRoleBindings: bootstrapClusterRoleBindings() };
}
