export { NodeSimulator, NodeSimulatorOptions } from './node-simulator';
