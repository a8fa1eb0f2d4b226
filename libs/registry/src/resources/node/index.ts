export { runtimeClassDefinition, runtimeClassStrategy, validateRuntimeClass } from './runtimeclasses';
