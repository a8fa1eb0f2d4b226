// plinth_controller_pods_created_total and plinth_controller_pods_deleted_total{controller} count
// the pods a controller (job, daemonset) created and deleted, the API calls that succeeded: what
// kube-controller-manager tells only through its events (SuccessfulCreate, SuccessfulDelete).
import { Counter, CounterChild, Registry } from './registry';

export interface ControllerPodMetrics {
  created: CounterChild;
  deleted: CounterChild;
}

export function controllerPodMetrics(registry: Registry, controller: string): ControllerPodMetrics {
  const created = registry.shared(new Counter({ name: 'plinth_controller_pods_created_total', help: 'Pods a controller created.', labelNames: ['controller'] }));
  const deleted = registry.shared(new Counter({ name: 'plinth_controller_pods_deleted_total', help: 'Pods a controller deleted.', labelNames: ['controller'] }));
  return { created: created.labels(controller), deleted: deleted.labels(controller) };
}
