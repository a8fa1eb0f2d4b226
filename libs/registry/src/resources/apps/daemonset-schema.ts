// The apps/v1 DaemonSet schema of Kubernetes 1.28 (k8s.io/api/apps/v1 types.go).
import { kindSchema, labelSelectorSchema, podTemplateSpecSchema, s, Schema } from '@plinth/api';

const ref = (name: string): string => `io.k8s.api.apps.v1.${name}`;

const rollingUpdateDaemonSetSchema: Schema = s.object(
  {
    maxUnavailable: s.intOrString('The maximum number of DaemonSet pods that can be unavailable during the update.'),
    maxSurge: s.intOrString('The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update.'),
  },
  { ref: ref('RollingUpdateDaemonSet') },
);

export const daemonSetUpdateStrategySchema: Schema = s.object(
  {
    type: s.enumOf(['OnDelete', 'RollingUpdate'], 'Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.'),
    rollingUpdate: { ...rollingUpdateDaemonSetSchema, description: 'Rolling update config params. Present only if type = "RollingUpdate".' },
  },
  { ref: ref('DaemonSetUpdateStrategy') },
);

export const daemonSetSpecSchema: Schema = s.object(
  {
    selector: { ...labelSelectorSchema, description: 'A label query over pods that are managed by the daemon set. Must match in order to be controlled.' },
    template: { ...podTemplateSpecSchema, description: 'An object that describes the pod that will be created.' },
    updateStrategy: { ...daemonSetUpdateStrategySchema, description: 'An update strategy to replace existing DaemonSet pods with new pods.' },
    minReadySeconds: s.int32('The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available.'),
    revisionHistoryLimit: s.int32('The number of old history to retain to allow rollback. Defaults to 10.'),
  },
  { required: ['selector', 'template'], ref: ref('DaemonSetSpec') },
);

const daemonSetConditionSchema: Schema = s.object(
  {
    type: s.string('Type of DaemonSet condition.'),
    status: s.string('Status of the condition, one of True, False, Unknown.'),
    lastTransitionTime: s.time('Last time the condition transitioned from one status to another.'),
    reason: s.string("The reason for the condition's last transition."),
    message: s.string('A human readable message indicating details about the transition.'),
  },
  { required: ['type', 'status'], ref: ref('DaemonSetCondition') },
);

export const daemonSetStatusSchema: Schema = s.object(
  {
    currentNumberScheduled: s.int32('The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
    numberMisscheduled: s.int32('The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.'),
    desiredNumberScheduled: s.int32('The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).'),
    numberReady: s.int32('numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
    observedGeneration: s.int64('The most recent generation observed by the daemon set controller.'),
    updatedNumberScheduled: s.int32('The total number of nodes that are running updated daemon pod'),
    numberAvailable: s.int32('The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    numberUnavailable: s.int32('The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    collisionCount: s.int32('Count of hash collisions for the DaemonSet.'),
    conditions: s.array(daemonSetConditionSchema, {
      patchMergeKey: 'type',
      patchStrategy: 'merge',
      description: "Represents the latest available observations of a DaemonSet's current state.",
    }),
  },
  { required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'], ref: ref('DaemonSetStatus') },
);

export const daemonSetSchema: Schema = kindSchema(
  {
    spec: { ...daemonSetSpecSchema, description: 'The desired behavior of this daemon set.' },
    status: { ...daemonSetStatusSchema, description: 'The current status of this daemon set.' },
  },
  'DaemonSet represents the configuration of a daemon set.',
  { ref: ref('DaemonSet') },
);

export const controllerRevisionSchema: Schema = kindSchema(
  {
    data: { ...s.any(), ref: 'io.k8s.apimachinery.pkg.runtime.RawExtension', description: 'Data is the serialized representation of the state.' },
    revision: s.int64('Revision indicates the revision of the state represented by Data.'),
  },
  'ControllerRevision implements an immutable snapshot of state data.',
  { required: ['revision'], ref: ref('ControllerRevision') },
);
