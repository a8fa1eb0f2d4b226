// The Status errors and their predicates, as Kubernetes' api/errors package.
export * from './status';
export * from './reasons';
