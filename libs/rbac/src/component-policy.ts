// The ClusterRoles of policy.go (v1.28) for the cluster's other components and add-ons: the
// scheduler, kube-proxy, kube-dns, heapster, the node problem detector, the aggregator, the
// certificate approvers and the service account issuer discovery; and the Roles of kube-system
// for the controller manager's and scheduler's leader locks and delegated authentication. Plinth
// writes them as kube-apiserver does, for the components a cluster adds.
import { AllServiceAccountsGroup, KubeControllerManager, KubeProxy, KubeScheduler } from './attributes';
import {
  appsGroup,
  authenticationGroup,
  authorizationGroup,
  certificatesGroup,
  clusterRole,
  clusterRoleBinding,
  coordinationGroup,
  discoveryGroup,
  extensionsGroup,
  groupSubject,
  legacyGroup,
  policyGroup,
  Read,
  role,
  roleBinding,
  serviceAccountSubject,
  storageGroup,
  userSubject,
} from './bootstrap-groups';
import { eventsRule } from './controller-policy';
import { newRule } from './rule-builder';
import { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from './types';

// The signers a certificate approver role may approve (kubernetes.io/<name> upstream).
const signerName = (name: string) => `platform.io/${name}`;

function reviewRules(): PolicyRule[] {
  return [
    newRule('create').groups(authenticationGroup).resources('tokenreviews').rule(),
    newRule('create').groups(authorizationGroup).resources('subjectaccessreviews').rule(),
  ];
}

function approverRole(name: string, signer: string): ClusterRole {
  return clusterRole({ name, rules: [newRule('approve').groups(certificatesGroup).resources('signers').names(signerName(signer)).rule()] });
}

// kubeSchedulerRules are what the scheduler needs: leader election, binding pods, and the
// informers its plugins read.
function kubeSchedulerRules(): PolicyRule[] {
  return [
    eventsRule(),
    newRule('create').groups(coordinationGroup).resources('leases').rule(),
    newRule('get', 'update').groups(coordinationGroup).resources('leases').names('kube-scheduler').rule(),
    newRule(...Read).groups(legacyGroup).resources('nodes').rule(),
    newRule('get', 'list', 'watch', 'delete').groups(legacyGroup).resources('pods').rule(),
    newRule('create').groups(legacyGroup).resources('pods/binding', 'bindings').rule(),
    newRule('patch', 'update').groups(legacyGroup).resources('pods/status').rule(),
    newRule(...Read).groups(legacyGroup).resources('replicationcontrollers', 'services').rule(),
    newRule(...Read).groups(appsGroup, extensionsGroup).resources('replicasets').rule(),
    newRule(...Read).groups(appsGroup).resources('statefulsets').rule(),
    newRule(...Read).groups(policyGroup).resources('poddisruptionbudgets').rule(),
    newRule(...Read).groups(legacyGroup).resources('persistentvolumeclaims', 'persistentvolumes').rule(),
    ...reviewRules(),
    newRule(...Read).groups(storageGroup).resources('csinodes').rule(),
    newRule(...Read).groups(legacyGroup).resources('namespaces').rule(),
    newRule(...Read).groups(storageGroup).resources('csidrivers').rule(),
    newRule(...Read).groups(storageGroup).resources('csistoragecapacities').rule(),
  ];
}

// componentClusterRoles are those roles, in policy.go's order.
export function componentClusterRoles(): ClusterRole[] {
  return [
    clusterRole({
      name: 'system:heapster',
      rules: [newRule(...Read).groups(legacyGroup).resources('events', 'pods', 'nodes', 'namespaces').rule(), newRule(...Read).groups(extensionsGroup).resources('deployments').rule()],
    }),
    clusterRole({
      name: 'system:node-problem-detector',
      rules: [newRule('get').groups(legacyGroup).resources('nodes').rule(), newRule('patch').groups(legacyGroup).resources('nodes/status').rule(), eventsRule()],
    }),
    clusterRole({
      name: 'system:kubelet-api-admin',
      rules: [
        newRule(...Read).groups(legacyGroup).resources('nodes').rule(),
        newRule('proxy').groups(legacyGroup).resources('nodes').rule(),
        newRule('*').groups(legacyGroup).resources('nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log').rule(),
      ],
    }),
    clusterRole({ name: 'system:node-bootstrapper', rules: [newRule('create', 'get', 'list', 'watch').groups(certificatesGroup).resources('certificatesigningrequests').rule()] }),
    clusterRole({ name: 'system:auth-delegator', rules: reviewRules() }),
    clusterRole({ name: 'system:kube-aggregator', rules: [newRule(...Read).groups(legacyGroup).resources('services', 'endpoints').rule()] }),
    clusterRole({ name: 'system:kube-dns', rules: [newRule('list', 'watch').groups(legacyGroup).resources('endpoints', 'services').rule()] }),
    clusterRole({
      name: 'system:persistent-volume-provisioner',
      rules: [
        newRule('get', 'list', 'watch', 'create', 'delete').groups(legacyGroup).resources('persistentvolumes').rule(),
        newRule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('persistentvolumeclaims').rule(),
        newRule(...Read).groups(storageGroup).resources('storageclasses').rule(),
        newRule('watch').groups(legacyGroup).resources('events').rule(),
        eventsRule(),
      ],
    }),
    clusterRole({
      name: `system:${certificatesGroup}:certificatesigningrequests:nodeclient`,
      rules: [newRule('create').groups(certificatesGroup).resources('certificatesigningrequests/nodeclient').rule()],
    }),
    clusterRole({
      name: `system:${certificatesGroup}:certificatesigningrequests:selfnodeclient`,
      rules: [newRule('create').groups(certificatesGroup).resources('certificatesigningrequests/selfnodeclient').rule()],
    }),
    clusterRole({
      name: 'system:volume-scheduler',
      rules: [
        newRule('get', 'list', 'watch', 'update', 'patch').groups(legacyGroup).resources('persistentvolumes').rule(),
        newRule(...Read).groups(storageGroup).resources('storageclasses').rule(),
        newRule('get', 'list', 'watch', 'update', 'patch').groups(legacyGroup).resources('persistentvolumeclaims').rule(),
      ],
    }),
    approverRole(`system:${certificatesGroup}:legacy-unknown-approver`, 'legacy-unknown'),
    approverRole(`system:${certificatesGroup}:kubelet-serving-approver`, 'kubelet-serving'),
    approverRole(`system:${certificatesGroup}:kube-apiserver-client-approver`, 'kube-apiserver-client'),
    approverRole(`system:${certificatesGroup}:kube-apiserver-client-kubelet-approver`, 'kube-apiserver-client-kubelet'),
    clusterRole({
      name: 'system:service-account-issuer-discovery',
      rules: [newRule('get').urls('/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/').rule()],
    }),
    clusterRole({
      name: 'system:node-proxier',
      rules: [
        newRule('list', 'watch').groups(legacyGroup).resources('services', 'endpoints').rule(),
        newRule(...Read).groups(legacyGroup).resources('nodes').rule(),
        eventsRule(),
        newRule('list', 'watch').groups(discoveryGroup).resources('endpointslices').rule(),
      ],
    }),
    clusterRole({ name: 'system:kube-scheduler', rules: kubeSchedulerRules() }),
  ];
}

// componentClusterRoleBindings are policy.go's bindings of those roles.
export function componentClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    clusterRoleBinding('system:node-proxier', [userSubject(KubeProxy)]),
    clusterRoleBinding('system:kube-scheduler', [userSubject(KubeScheduler)]),
    clusterRoleBinding('system:volume-scheduler', [userSubject(KubeScheduler)]),
    clusterRoleBinding('system:kube-dns', [serviceAccountSubject('kube-system', 'kube-dns')]),
    clusterRoleBinding('system:service-account-issuer-discovery', [groupSubject(AllServiceAccountsGroup)]),
  ];
}

const SystemNamespace = 'kube-system';

function leaderLockingRole(component: string): Role {
  return role(SystemNamespace, `system::leader-locking-${component}`, [
    newRule('watch').groups(legacyGroup).resources('configmaps').rule(),
    newRule('get', 'update').groups(legacyGroup).resources('configmaps').names(component).rule(),
  ]);
}

// componentRoles are NamespaceRoles() of namespace_policy.go for the components (the controllers'
// Roles there are for controllers Plinth does not run): reading the delegated authentication
// configuration, and the configmap leader locks of the controller manager and the scheduler.
export function componentRoles(): Role[] {
  return [
    role(SystemNamespace, 'extension-apiserver-authentication-reader', [
      newRule(...Read).groups(legacyGroup).resources('configmaps').names('extension-apiserver-authentication').rule(),
    ]),
    leaderLockingRole('kube-controller-manager'),
    leaderLockingRole('kube-scheduler'),
  ];
}

export function componentRoleBindings(): RoleBinding[] {
  return [
    roleBinding(SystemNamespace, 'extension-apiserver-authentication-reader', [userSubject(KubeControllerManager), userSubject(KubeScheduler)], 'system::extension-apiserver-authentication-reader'),
    roleBinding(SystemNamespace, 'system::leader-locking-kube-controller-manager', [userSubject(KubeControllerManager), serviceAccountSubject(SystemNamespace, 'kube-controller-manager')]),
    roleBinding(SystemNamespace, 'system::leader-locking-kube-scheduler', [userSubject(KubeScheduler), serviceAccountSubject(SystemNamespace, 'kube-scheduler')]),
  ];
}
