export { jobDefinition, jobStrategy } from './jobs';
export { jobSchema, jobSpecSchema, jobStatusSchema, podFailurePolicySchema } from './job-schema';
export { jobTable, jobCompletions, jobDuration } from './job-table';
export { validateJob, validateJobSpec, validateJobSpecFields, validateJobStatus, JobValidationOptions } from './job-validation';
export * from './job-types';
