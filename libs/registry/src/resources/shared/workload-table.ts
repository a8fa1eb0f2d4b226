// Table cells shared by the workload printers (pkg/printers/internalversion, 1.28): container
// names and images of a template, label selectors and label sets.
import { labelSelectorAsSelector, LabelSelector } from '@plinth/machinery';
import { column } from '../../table';

export const containersColumn = column('Containers', 'string', 'Names of each container in the template.', 1);
export const imagesColumn = column('Images', 'string', 'Images referenced by each container in the template.', 1);

// layoutContainerCells joins container names and images with commas, as the printers do.
export function layoutContainerCells(containers: { name?: string; image?: string }[] | null | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c?.name ?? '').join(','), list.map((c) => c?.image ?? '').join(',')];
}

// formatLabelSelector is metav1.FormatLabelSelector: `<none>` for an empty or nil selector.
export function formatLabelSelector(selector: LabelSelector | null | undefined): string {
  let text: string;
  try {
    text = labelSelectorAsSelector(selector).toString();
  } catch {
    return '<error>';
  }
  return text.length === 0 ? '<none>' : text;
}

// formatLabels is labels.FormatLabels: sorted key=value pairs, `<none>` when empty.
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
}
