import { KubeObject } from '@plinth/api';
import { Clock, FieldError, isStatusError, realClock, StatusError } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { StrategyContext } from '../../resource';
import { ResourceStore } from '../../store/resource-store';
import { jobDefinition } from './jobs';
import { Job } from './job-types';

const now = Date.parse('2024-05-01T12:00:00Z');
const clock: Clock = { ...realClock, now: () => now };

function ctx(gates: Record<string, boolean> = {}): StrategyContext {
  return { featureGates: new Map(Object.entries(gates)), now };
}

function job(spec: Record<string, unknown> = {}, name = 'pi'): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl:5.34.0' }], restartPolicy: 'Never' } }, ...spec },
  };
}

// created runs the create path of the strategy on a copy: defaults, server metadata, prepare.
function created(object: Job, gates: Record<string, boolean> = {}): Job {
  const copy = structuredClone(object);
  const c = ctx(gates);
  jobDefinition.strategy.defaults?.(copy, c);
  copy.metadata.uid = '1f7e1ae2-3c3c-4e5e-9d8f-0a7c3c2c1d00';
  jobDefinition.strategy.prepareForCreate?.(copy, c);
  return copy;
}

function messages(errs: FieldError[]): string[] {
  return errs.map((e) => e.toString());
}

function validateCreate(object: Job, gates: Record<string, boolean> = {}): string[] {
  const copy = created(object, gates);
  return messages(jobDefinition.strategy.validate(copy, ctx(gates)));
}

async function storeWith(gates: Record<string, boolean> = {}): Promise<ResourceStore> {
  return new ResourceStore(jobDefinition, new EmbeddedObjectStore(), clock, new Map(Object.entries(gates)));
}

async function rejected(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('jobs definition', () => {
  it('is batch/v1 Job with status, generation and Orphan deletion', () => {
    expect(jobDefinition).toMatchObject({
      group: 'batch',
      version: 'v1',
      resource: 'jobs',
      kind: 'Job',
      listKind: 'JobList',
      namespaced: true,
      categories: ['all'],
      subresources: ['status'],
      tracksGeneration: true,
      defaultPropagationPolicy: 'Orphan',
    });
    expect(jobDefinition.shortNames).toBeUndefined();
    expect(jobDefinition.schema.required).toBeUndefined();
    const spec = jobDefinition.schema.properties?.spec;
    expect(spec?.required).toEqual(['template']);
    expect(Object.keys(spec?.properties ?? {})).toEqual([
      'parallelism',
      'completions',
      'activeDeadlineSeconds',
      'podFailurePolicy',
      'backoffLimit',
      'backoffLimitPerIndex',
      'maxFailedIndexes',
      'selector',
      'manualSelector',
      'template',
      'ttlSecondsAfterFinished',
      'completionMode',
      'suspend',
      'podReplacementPolicy',
    ]);
    expect(jobDefinition.schema.properties?.status?.properties?.conditions).toMatchObject({ listType: 'atomic', patchMergeKey: 'type' });
  });
});

describe('Job defaults (SetDefaults_Job)', () => {
  it('defaults completions and parallelism to 1 when both are unset, and the rest', () => {
    const spec = created(job()).spec ?? {};
    expect(spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false });
    expect(spec).not.toHaveProperty('manualSelector');
    expect(spec).not.toHaveProperty('podReplacementPolicy');
    expect(spec.template?.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
  });

  it('leaves completions unset when only parallelism is given, and parallelism 1 when only completions', () => {
    expect(created(job({ parallelism: 3 })).spec).toMatchObject({ parallelism: 3 });
    expect(created(job({ parallelism: 3 })).spec).not.toHaveProperty('completions');
    expect(created(job({ completions: 5 })).spec).toMatchObject({ completions: 5, parallelism: 1 });
  });

  it('uses MaxInt32 for backoffLimit when backoffLimitPerIndex is set, even if the gate then drops it', () => {
    const spec = created(job({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1 })).spec ?? {};
    expect(spec.backoffLimit).toBe(2147483647);
    expect(spec).not.toHaveProperty('backoffLimitPerIndex');
    const gated = created(job({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1 }), { JobBackoffLimitPerIndex: true }).spec ?? {};
    expect(gated.backoffLimitPerIndex).toBe(1);
  });

  it('defaults the pod condition pattern status to True', () => {
    const spec = created(job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } })).spec ?? {};
    expect(spec.podFailurePolicy?.rules?.[0].onPodConditions).toEqual([{ type: 'DisruptionTarget', status: 'True' }]);
  });

  it('defaults podReplacementPolicy only with the JobPodReplacementPolicy gate', () => {
    const gates = { JobPodReplacementPolicy: true };
    expect(created(job(), gates).spec?.podReplacementPolicy).toBe('TerminatingOrFailed');
    const withPolicy = job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } });
    expect(created(withPolicy, gates).spec?.podReplacementPolicy).toBe('Failed');
  });
});

describe('Job selector generation', () => {
  it('labels the template with job-name and controller-uid, prefixed and legacy, and selects the prefixed uid', () => {
    const j = created(job());
    const uid = j.metadata.uid;
    expect(j.spec?.selector).toEqual({ matchLabels: { 'batch.platform.io/controller-uid': uid } });
    expect(j.spec?.template?.metadata?.labels).toEqual({
      'batch.platform.io/controller-uid': uid,
      'batch.platform.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
    // Validation sees an unlabeled Job; it is stored with its template's labels, as
    // kube-apiserver reads it back (SetDefaults_Job).
    expect(j.metadata.labels).toBeUndefined();
    jobDefinition.strategy.canonicalize?.(j, ctx());
    expect(j.metadata.labels).toEqual(j.spec?.template?.metadata?.labels);
    expect(j.status).toEqual({});
  });

  it('keeps the labels of a labeled Job', () => {
    const j = job();
    j.metadata.labels = { app: 'pi' };
    expect(created(j).metadata.labels).toEqual({ app: 'pi' });
  });

  it('generates nothing with manualSelector', () => {
    const j = created(job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } }));
    expect(j.spec?.selector).toEqual({ matchLabels: { app: 'x' } });
    expect(j.spec?.template?.metadata?.labels).toEqual({ app: 'x' });
    expect(validateCreate(j)).toEqual([]);
  });

  it('rejects a selector the strategy did not generate', () => {
    const j = job({ selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } });
    const uid = created(j).metadata.uid ?? '';
    expect(validateCreate(j)).toEqual([
      `spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "batch.platform.io/controller-uid":"${uid}"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: \`selector\` not auto-generated`,
    ]);
  });

  it('rejects a template label that conflicts with the generated one', () => {
    const j = job({ template: { metadata: { labels: { 'job-name': 'other' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } });
    const uid = '1f7e1ae2-3c3c-4e5e-9d8f-0a7c3c2c1d00';
    expect(validateCreate(j)).toEqual([
      `spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"batch.platform.io/controller-uid":"${uid}", "batch.platform.io/job-name":"pi", "controller-uid":"${uid}", "job-name":"other"}: must be 'pi'`,
    ]);
  });
});

describe('Job validation (ValidateJob)', () => {
  it('accepts a minimal Job', () => {
    expect(validateCreate(job())).toEqual([]);
  });

  it('requires restartPolicy OnFailure or Never', () => {
    expect(validateCreate(job({ template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }))).toEqual([
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    expect(validateCreate(job({ template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } }))).toEqual([
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
  });

  it('checks the counters', () => {
    expect(validateCreate(job({ parallelism: -1, completions: -2, backoffLimit: -3, activeDeadlineSeconds: -4, ttlSecondsAfterFinished: -5 }))).toEqual([
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.completions: Invalid value: -2: must be greater than or equal to 0',
      'spec.activeDeadlineSeconds: Invalid value: -4: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -3: must be greater than or equal to 0',
      'spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0',
    ]);
  });

  it('validates the completion mode', () => {
    expect(validateCreate(job({ completionMode: 'Sometimes' }))).toEqual(['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']);
    expect(validateCreate(job({ completionMode: 'Indexed', parallelism: 2 }))).toEqual(['spec.completions: Required value: when completion mode is Indexed']);
    expect(validateCreate(job({ completionMode: 'Indexed', completions: 200000, parallelism: 100001 }))).toEqual([
      'spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed',
    ]);
  });

  it('checks that Indexed pod hostnames are DNS labels', () => {
    const name = 'a'.repeat(62);
    expect(validateCreate(job({ completionMode: 'Indexed', completions: 10 }, name))).toEqual([
      `metadata.name: Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-9`,
    ]);
  });

  it('needs indexed mode for backoffLimitPerIndex when the gate is on', () => {
    expect(validateCreate(job({ backoffLimitPerIndex: 1, maxFailedIndexes: 1 }), { JobBackoffLimitPerIndex: true })).toEqual([
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
    ]);
  });

  it('validates the pod failure policy', () => {
    const rules = Array.from({ length: 21 }, () => ({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }));
    expect(validateCreate(job({ podFailurePolicy: { rules } }))).toEqual(['spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items']);

    const policy = {
      rules: [
        { action: 'Explode', onExitCodes: { containerName: 'missing', operator: 'In', values: [3, 0, 3, 1] } },
        { action: '', onExitCodes: { operator: 'Maybe', values: [] } },
        { action: 'FailJob' },
        { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1] }, onPodConditions: [{ type: 'x/y/z', status: 'Maybe' }] },
        { action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } },
      ],
    };
    expect(validateCreate(job({ podFailurePolicy: policy }), { JobBackoffLimitPerIndex: true })).toEqual([
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Explode": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "missing": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3, 1}: must be ordered',
      'spec.podFailurePolicy.rules[1].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[1].onExitCodes.operator: Unsupported value: "Maybe": supported values: "In", "NotIn"',
      'spec.podFailurePolicy.rules[1].onExitCodes.values: Invalid value: []int32{}: at least one value is required',
      'spec.podFailurePolicy.rules[2]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      expect.stringMatching(/^spec\.podFailurePolicy\.rules\[3\]\.onPodConditions\[0\]\.type: Invalid value: "x\/y\/z": a qualified name must consist of/),
      'spec.podFailurePolicy.rules[3].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'spec.podFailurePolicy.rules[3]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      'spec.podFailurePolicy.rules[4].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
    ]);
  });

  it('allows a pod failure policy only with restartPolicy Never', () => {
    const spec = {
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
      template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } },
    };
    expect(validateCreate(job(spec))).toEqual(['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']);
  });

  it('drops the pod failure policy when the JobPodFailurePolicy gate is off', () => {
    const spec = { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } };
    expect(created(job(spec), { JobPodFailurePolicy: false }).spec).not.toHaveProperty('podFailurePolicy');
    expect(created(job(spec)).spec?.podFailurePolicy).toBeDefined();
  });

  it('rejects template labels the selector does not match', () => {
    const j = job({
      manualSelector: true,
      selector: { matchLabels: { app: 'a' } },
      template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } },
    });
    expect(validateCreate(j)).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`']);
    const noSelector = job({ manualSelector: true, template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } });
    expect(validateCreate(noSelector)).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
    ]);
  });
});

describe('Job store round trips', () => {
  it('creates a Job with generated selector, labels and empty status', async () => {
    const store = await storeWith();
    const out = (await store.create('default', job())) as Job;
    const uid = out.metadata.uid;
    expect(out.metadata.generation).toBe(1);
    expect(out.metadata.labels).toEqual({
      'batch.platform.io/controller-uid': uid,
      'batch.platform.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
    expect(out.spec?.selector).toEqual({ matchLabels: { 'batch.platform.io/controller-uid': uid } });
    expect(out.status).toEqual({});
  });

  it('reports invalid Jobs with Kubernetes messages', async () => {
    const store = await storeWith();
    const err = await rejected(store.create('default', job({ template: { spec: { containers: [{ name: 'c', image: 'i' }] } } })));
    expect(err.errStatus.code).toBe(422);
    expect(err.errStatus.message).toBe('Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
  });

  it("addresses a name too long for its pods' labels to the template only", async () => {
    const store = await storeWith();
    const name = 'a'.repeat(70);
    const err = await rejected(store.create('default', job({}, name)));
    const causes = (err.errStatus.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
    const tooLong = `spec.template.labels: Invalid value: "${name}": must be no more than 63 characters`;
    expect(causes).toEqual([tooLong, tooLong]);
  });

  it('keeps selector, template and completions immutable', async () => {
    const store = await storeWith();
    const out = (await store.create('default', job())) as Job;
    const changed = structuredClone(out);
    changed.spec = { ...changed.spec, completions: 3, selector: { matchLabels: { ...changed.spec?.selector?.matchLabels, extra: 'x' } } };
    changed.spec.template = structuredClone(out.spec?.template);
    if (changed.spec.template?.spec?.containers?.[0]) changed.spec.template.spec.containers[0].image = 'perl:5.36';
    const err = await rejected(store.update('default', 'pi', changed));
    const causes = (err.errStatus.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
    expect(causes).toContain('spec.completions: Invalid value: 3: field is immutable');
    expect(causes).toContainEqual(expect.stringMatching(/^spec\.selector: Invalid value: v1\.LabelSelector\{MatchLabels:map\[string\]string\{"batch\.platform\.io\/controller-uid":".*", "extra":"x"\}, MatchExpressions:\[\]v1\.LabelSelectorRequirement\(nil\)\}: field is immutable$/));
    expect(causes).toContainEqual(expect.stringMatching(/^spec\.template: Invalid value: .*: field is immutable$/));
  });

  it('lets a suspended Job that never started change its scheduling directives', async () => {
    const store = await storeWith();
    const out = (await store.create('default', job({ suspend: true }))) as Job;
    const changed = structuredClone(out);
    if (changed.spec?.template?.spec) changed.spec.template.spec.nodeSelector = { disk: 'ssd' };
    const result = await store.update('default', 'pi', changed);
    expect((result.object as Job).spec?.template?.spec?.nodeSelector).toEqual({ disk: 'ssd' });
    expect(result.object.metadata.generation).toBe(2);
  });

  it('scales an elastic Indexed Job when completions and parallelism change together', async () => {
    const store = await storeWith();
    const out = (await store.create('default', job({ completionMode: 'Indexed', completions: 3, parallelism: 3 }))) as Job;
    const scaled = structuredClone(out);
    scaled.spec = { ...scaled.spec, completions: 5, parallelism: 5 };
    expect(((await store.update('default', 'pi', scaled)).object as Job).spec?.completions).toBe(5);
    const bad = structuredClone(scaled);
    bad.metadata.resourceVersion = undefined;
    bad.spec = { ...bad.spec, completions: 6 };
    const err = await rejected(store.update('default', 'pi', bad));
    expect(err.errStatus.message).toBe('Job.batch "pi" is invalid: spec.completions: Invalid value: 6: can only be modified in tandem with spec.parallelism');
  });

  it('keeps a pod failure policy the old object had when the gate is off', async () => {
    const spec = { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } };
    const on = await storeWith();
    const out = (await on.create('default', job(spec))) as Job;
    const update = structuredClone(out);
    const c = ctx({ JobPodFailurePolicy: false });
    jobDefinition.strategy.prepareForUpdate?.(update, out, c);
    expect(update.spec?.podFailurePolicy).toBeDefined();
    const fresh = structuredClone(out);
    const old = structuredClone(out);
    delete old.spec?.podFailurePolicy;
    jobDefinition.strategy.prepareForUpdate?.(fresh, old, c);
    expect(fresh.spec).not.toHaveProperty('podFailurePolicy');
  });

  it('validates status counters on the status subresource', async () => {
    const store = await storeWith();
    const out = (await store.create('default', job())) as Job;
    const update = structuredClone(out);
    update.status = { active: -1, succeeded: 1, uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } };
    const err = await rejected(store.update('default', 'pi', update, { subresource: 'status' }));
    expect((err.errStatus.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.active: Invalid value: -1: must be greater than or equal to 0',
      'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
      'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
    ]);
  });
});

describe('Job table and fields', () => {
  const table = jobDefinition.table;

  it('has the printJob columns', () => {
    expect(table?.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Completions', 'string', 0],
      ['Duration', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    // Descriptions are printers.go's: the SwaggerDoc of batch/v1 and ObjectMeta in 1.28.
    expect(table?.columns[0].description).toMatch(/More info: https:\/\/kubernetes\.io\/docs\/concepts\/overview\/working-with-objects\/names#names$/);
    expect(table?.columns[1].description).toBe('The number of pods which reached phase Succeeded.');
  });

  it('prints completions, duration and age', () => {
    const j = created(job());
    j.metadata.creationTimestamp = '2024-05-01T11:55:00Z';
    j.status = { startTime: '2024-05-01T11:55:01Z', completionTime: '2024-05-01T11:55:38Z', succeeded: 1 };
    expect(table?.row(j, now)).toEqual(['pi', '1/1', '37s', '5m', 'pi', 'perl:5.34.0', `batch.platform.io/controller-uid=${j.metadata.uid}`]);
    const running = created(job({ parallelism: 3 }));
    running.metadata.creationTimestamp = '2024-05-01T09:00:00Z';
    running.status = { startTime: '2024-05-01T09:00:00Z', active: 3 };
    expect(table?.row(running, now).slice(0, 4)).toEqual(['pi', '0/1 of 3', '3h', '3h']);
    const pending = created(job({ completions: 4 }));
    expect(table?.row(pending, now).slice(0, 4)).toEqual(['pi', '0/4', '', '<unknown>']);
  });

  it('selects on status.successful', () => {
    const j = created(job());
    j.status = { succeeded: 2 };
    expect(jobDefinition.strategy.selectableFields?.(j as KubeObject)).toEqual({ 'status.successful': '2' });
  });

  it('warns about names that are not DNS labels on create', () => {
    expect(jobDefinition.strategy.warnings?.(created(job({}, 'pi.v1')))).toEqual([
      "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
    expect(jobDefinition.strategy.warnings?.(created(job()))).toEqual([]);
  });
});
