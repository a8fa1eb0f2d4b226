// @plinth/nest/controllers: the host of the controller manager and the credentials its
// controllers run with.
export { controllerManagerSettings } from './controller-manager-settings';
export { ControllersHost, CONTROLLER_CREDENTIALS, CONTROLLER_MANAGER_SETTINGS, ControllerCredentials, LEADER_MIGRATION } from './controllers.host';
export { kubeconfigCredentials, readKubeconfig } from './kubeconfig-credentials';
