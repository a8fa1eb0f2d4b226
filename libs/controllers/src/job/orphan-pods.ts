// Orphan pods, after syncOrphanPod of pkg/controller/job/job_controller.go (v1.28): a pod that
// still carries the Job tracking finalizer while no unfinished Job controls it (its Job was
// deleted, its Job finished, or the garbage collector took the owner reference off when its Job
// was deleted with the Orphan policy) has the finalizer taken off by the controller, since no
// sync of a Job will; otherwise the pod could never go away.
import { isJobFinished } from './conditions';
import { hasTrackingFinalizer } from './pod-status';
import { Job, Pod } from './types';

// releasesOrphanFinalizer says whether the tracking finalizer comes off a pod whose controlling
// Job, as the informer holds it, is controller (undefined: none, or a Job of another uid).
export function releasesOrphanFinalizer(pod: Pod, controller: Job | undefined): boolean {
  return hasTrackingFinalizer(pod) && (controller === undefined || isJobFinished(controller));
}
