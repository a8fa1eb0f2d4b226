import { KubeObject } from '@plinth/api';
import { builtinDefinitions, ResourceDefinition } from '@plinth/registry';
import { buildPredicate } from './selectors';

const pods = builtinDefinitions().find((def) => def.resource === 'pods' && def.group === '') as ResourceDefinition;

// countingPods is the pods definition with its selectable fields counted.
function countingPods(): { def: ResourceDefinition; gathered: () => number } {
  let gathered = 0;
  const selectableFields = (object: KubeObject) => {
    gathered++;
    return pods.strategy.selectableFields!(object);
  };
  const strategy = Object.assign(Object.create(pods.strategy) as ResourceDefinition['strategy'], { selectableFields });
  return { def: { ...pods, strategy }, gathered: () => gathered };
}

function pod(name: string, nodeName: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' } }, spec: { nodeName, containers: [] } } as KubeObject;
}

describe('buildPredicate', () => {
  it("matches a field selector on the type's selectable fields and a label selector on the labels", () => {
    const { def } = countingPods();
    const onNode = buildPredicate(def, 'app=web', 'spec.nodeName=node-1');
    expect(onNode.empty).toBe(false);
    expect(onNode.matches(pod('a', 'node-1'))).toBe(true);
    expect(onNode.matches(pod('b', 'node-2'))).toBe(false);
    expect(buildPredicate(def, 'app=db', 'spec.nodeName=node-1').matches(pod('c', 'node-1'))).toBe(false);
    expect(buildPredicate(def, '', '').empty).toBe(true);
  });

  it("gathers a frozen (cached) object's fields once for every watcher's field selector", () => {
    const { def, gathered } = countingPods();
    const kubelets = Array.from({ length: 100 }, (_, index) => buildPredicate(def, '', `spec.nodeName=node-${index}`));
    const built = gathered();
    const cached = Object.freeze(pod('cached', 'node-7'));
    expect(kubelets.filter((predicate) => predicate.matches(cached)).length).toBe(1);
    expect(gathered() - built).toBe(1);
    const fresh = pod('fresh', 'node-7');
    expect(kubelets.filter((predicate) => predicate.matches(fresh)).length).toBe(1);
    expect(gathered() - built).toBe(101);
  });
});
