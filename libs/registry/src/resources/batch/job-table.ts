// The Job Table of kubectl's server-side printer (pkg/printers/internalversion printJob, 1.28):
// NAME COMPLETIONS DURATION AGE, and with -o wide CONTAINERS IMAGES SELECTOR.
import { KubeObject } from '@plinth/api';
import { TableDefinition } from '../../resource';
import { age, ageColumn, column, humanDuration, nameColumn } from '../../table';
import { containersColumn, formatLabelSelector, imagesColumn, layoutContainerCells } from '../shared/workload-table';
import { isSet, Job } from './job-types';

// jobCompletions is the COMPLETIONS cell: succeeded/completions, or for a Job without
// completions succeeded/1, with "of <parallelism>" when it runs more than one pod at a time.
export function jobCompletions(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (isSet(completions)) return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

// jobDuration is the DURATION cell: from startTime to completionTime, or to now while running.
export function jobDuration(job: Job, now: number): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const completion = job.status?.completionTime;
  const end = completion ? Date.parse(completion) : now;
  return humanDuration(end - Date.parse(start));
}

export const jobTable: TableDefinition = {
  columns: [
    nameColumn,
    column('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column(
      'Selector',
      'string',
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      1,
    ),
  ],
  row(object: KubeObject, now: number): unknown[] {
    const job = object as Job;
    const [names, images] = layoutContainerCells(job.spec?.template?.spec?.containers);
    return [job.metadata.name ?? '', jobCompletions(job), jobDuration(job, now), age(job, now), names, images, formatLabelSelector(job.spec?.selector)];
  },
};
