import { newJob } from './fixtures';
import { podFromTemplate, podGenerateName } from './pod-template';

describe('podFromTemplate', () => {
  it('builds a NonIndexed pod with generateName, labels, finalizer and controller reference', () => {
    const job = newJob();
    const pod = podFromTemplate(job);
    expect(pod.metadata).toEqual({
      generateName: 'pi-',
      namespace: 'default',
      labels: {
        'batch.platform.io/controller-uid': job.metadata.uid,
        'controller-uid': job.metadata.uid,
        'batch.platform.io/job-name': 'pi',
        'job-name': 'pi',
      },
      finalizers: ['batch.platform.io/job-tracking'],
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }],
    });
    expect(pod.spec?.hostname).toBeUndefined();
    expect(pod.spec?.containers).toEqual(job.spec?.template?.spec?.containers);
  });

  it('adds the index annotation, hostname and environment variable for Indexed Jobs', () => {
    const job = newJob({ completionMode: 'Indexed', completions: 5 });
    job.spec!.template!.spec!.subdomain = 'workers';
    job.spec!.template!.spec!.initContainers = [{ name: 'init' }];
    const pod = podFromTemplate(job, 3);
    expect(pod.metadata.generateName).toBe('pi-3-');
    expect(pod.metadata.annotations).toEqual({ 'batch.platform.io/job-completion-index': '3' });
    expect(pod.metadata.labels?.['batch.platform.io/job-completion-index']).toBe('3');
    expect(pod.spec?.hostname).toBe('pi-3');
    expect(pod.spec?.subdomain).toBe('workers');
    const env = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.platform.io/job-completion-index']" } } };
    expect(pod.spec?.containers?.[0].env).toEqual([env]);
    expect(pod.spec?.initContainers?.[0].env).toEqual([env]);
  });

  it('reads the index from the annotation alone with the PodIndexLabel gate off', () => {
    const job = newJob({ completionMode: 'Indexed', completions: 5 });
    const pod = podFromTemplate(job, 2, new Map([['PodIndexLabel', false]]));
    expect(pod.metadata.labels?.['batch.platform.io/job-completion-index']).toBeUndefined();
    expect(pod.spec?.containers?.[0].env).toEqual([{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.platform.io/job-completion-index']" } } }]);
  });

  it('does not change the Job template', () => {
    const job = newJob({ completionMode: 'Indexed', completions: 2 });
    const before = structuredClone(job);
    podFromTemplate(job, 1);
    expect(job).toEqual(before);
  });

  it('keeps template finalizers and labels, and leaves manual selectors alone', () => {
    const job = newJob({ manualSelector: true });
    job.spec!.template!.metadata = { labels: { app: 'pi' }, finalizers: ['example.com/keep'] };
    const pod = podFromTemplate(job);
    expect(pod.metadata.labels).toEqual({ app: 'pi' });
    expect(pod.metadata.finalizers).toEqual(['example.com/keep', 'batch.platform.io/job-tracking']);
  });
});

describe('podGenerateName', () => {
  it('cuts long Job names so that the generated name stays within 63 characters', () => {
    const long = 'a'.repeat(70);
    expect(podGenerateName(long)).toHaveLength(58);
    expect(podGenerateName(long, 12)).toBe(`${'a'.repeat(54)}-12-`);
  });
});
