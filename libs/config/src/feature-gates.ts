// Feature gates, as the --feature-gates flag sets them. The defaults are those the spec
// documents state (which win over Kubernetes 1.28 where they differ): JobPodFailurePolicy off.
export const defaultFeatureGates: Readonly<Record<string, boolean>> = {
  APIListChunking: true,
  APIResponseCompression: true,
  JobReadyPods: true,
  WatchList: false,
  JobPodFailurePolicy: false,
  JobPodReplacementPolicy: false,
  JobBackoffLimitPerIndex: false,
  ElasticIndexedJob: true,
  ServerSideApply: true,
  ServerSideFieldValidation: true,
  APISelfSubjectReview: true,
  DaemonSetUpdateSurge: true,
  PodIndexLabel: true,
};

export class FeatureGateError extends Error {}

export function parseFeatureGates(flag: string | undefined): Map<string, boolean> {
  const gates = new Map(Object.entries(defaultFeatureGates));
  for (const item of (flag ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, raw] = item.split('=');
    if (!(name in defaultFeatureGates)) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
    if (raw !== 'true' && raw !== 'false') throw new FeatureGateError(`invalid value of ${name}=${raw ?? ''}, err: strconv.ParseBool: parsing "${raw ?? ''}": invalid syntax`);
    gates.set(name, raw === 'true');
  }
  return gates;
}
