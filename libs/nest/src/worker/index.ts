// @plinth/nest/worker: a part of the process on a supervised worker thread (the all-in-one's
// controller manager), both sides: the host and supervisor in the main thread, answerSupervisor
// in the worker.
export { ControllersWorker, ControllersWorkerHost, CONTROLLERS_WORKER, CredentialsRequest, loadedRequest, metricsRequest } from './controllers-worker.host';
export { defaultRestartPolicy, RestartDecision, RestartPolicy, RestartPolicyOptions } from './restart-policy';
export { SupervisorLog, ThreadSupervisor, ThreadSupervisorOptions } from './thread-supervisor';
export { answerSupervisor, SupervisedThread } from './supervised-thread';
