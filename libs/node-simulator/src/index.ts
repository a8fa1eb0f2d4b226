export { simAnnotations, defaultRunSeconds } from './annotations';
export { simulatedNode, SimulatedNodeOptions, withoutNotReadyTaint } from './nodes';
export { chooseNode, nodeFits } from './scheduler';
export { nextPodStatus, PodProgress } from './pod-lifecycle';
