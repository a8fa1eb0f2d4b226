// POST pods/{name}/binding: the scheduler's Binding assigns a pod to a node, once (409 when the
// pod is already bound), and marks it PodScheduled. The Binding names the pod of the URL, as
// BindingREST.Create requires.
import { bindingSchema, KubeObject } from '@plinth/api';
import { badRequest, conflict, rfc3339 } from '@plinth/machinery';
import { decodeKindText } from '../decode';
import { bodyToJson, readBody } from '../http/body';
import { writeAny } from '../output';
import { RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';

interface Binding {
  metadata?: { name?: string };
  target?: { kind?: string; name?: string };
}

// podsBinding is the resource a refused binding's Status names (api.Resource("pods/binding")).
const podsBinding = { group: '', resource: 'pods/binding' };

const bindingTarget = { group: '', version: 'v1', kind: 'Binding', schema: bindingSchema };

export async function createBinding(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const binding = decodeKindText(bodyToJson(scope.req, await readBody(scope.req)), bindingTarget) as Binding;
  if ((binding.metadata?.name ?? '') !== scope.info.name) throw badRequest('name in URL does not match name in Binding object');
  const node = binding.target?.name ?? '';
  if (!node) throw badRequest('Binding.target.name is required');
  const now = rfc3339(scope.server.clock.now());
  await scope.store.update(
    scope.info.namespace,
    scope.info.name,
    (current: KubeObject | null) => {
      if (!current) throw badRequest(`pods "${scope.info.name}" not found`);
      const spec = (current.spec ?? {}) as { nodeName?: string };
      if (spec.nodeName) throw conflict(podsBinding, scope.info.name, `pod ${scope.info.name} is already assigned to node "${spec.nodeName}"`);
      const status = (current.status ?? {}) as { conditions?: { type: string }[] };
      const conditions = [...(status.conditions ?? []).filter((c) => c.type !== 'PodScheduled'), { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now }];
      return { ...current, spec: { ...spec, nodeName: node }, status: { ...status, conditions } };
    },
    { dryRun: options.dryRun, subresource: 'binding' },
    false,
  );
  writeAny(scope, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}
