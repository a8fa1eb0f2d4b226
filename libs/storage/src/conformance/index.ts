export { runObjectStoreConformance, ObjectStoreFactory, ConformanceOptions } from './object-store.conformance';
