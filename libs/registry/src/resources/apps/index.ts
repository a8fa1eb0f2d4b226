export { daemonSetDefinition, daemonSetStrategy, daemonSetTable, defaultDaemonSet } from './daemonsets';
export { controllerRevisionDefinition, controllerRevisionStrategy, controllerRevisionTable, controllerName } from './controllerrevisions';
export { daemonSetSchema, daemonSetSpecSchema, daemonSetStatusSchema, controllerRevisionSchema } from './daemonset-schema';
export { validateDaemonSetSpec, validateDaemonSetStatus } from './daemonset-validation';
export { formatLabels, formatLabelSelector, layoutContainerCells } from '../shared/workload-table';
