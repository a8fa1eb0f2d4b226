import { KubeObject } from '@plinth/api';
import { Clock, isStatusError, realClock, StatusError } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { ResourceStore } from '../../store/resource-store';
import { controllerRevisionDefinition } from './controllerrevisions';

const now = Date.parse('2024-05-01T12:00:00Z');
const clock: Clock = { ...realClock, now: () => now };

function revision(extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: 'agent-5d8b7c',
      namespace: 'kube-system',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u1', controller: true }],
    },
    data: { spec: { template: { $patch: 'replace' } } },
    revision: 1,
    ...extra,
  };
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

describe('controllerrevisions', () => {
  const store = (): ResourceStore => new ResourceStore(controllerRevisionDefinition, new EmbeddedObjectStore(), clock, new Map());

  it('is apps/v1 ControllerRevision without status or generation', () => {
    expect(controllerRevisionDefinition).toMatchObject({ group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true });
    expect(controllerRevisionDefinition.subresources).toBeUndefined();
    expect(controllerRevisionDefinition.tracksGeneration).toBeFalsy();
    expect(controllerRevisionDefinition.schema.required).toEqual(['revision']);
  });

  it('requires data and a non-negative revision', async () => {
    const err = await rejected(store().create('kube-system', revision({ data: undefined, revision: -1 })));
    expect(err.errStatus.message).toBe(
      'ControllerRevision.apps "agent-5d8b7c" is invalid: [data: Required value: data is mandatory, revision: Invalid value: -1: must be greater than or equal to 0]',
    );
  });

  it('defaults a missing revision to 0', async () => {
    const out = await store().create('kube-system', revision({ revision: undefined }));
    expect(out.revision).toBe(0);
    expect(out.metadata.generation).toBeUndefined();
  });

  it('keeps data immutable but lets the revision change', async () => {
    const s = store();
    const out = await s.create('kube-system', revision());
    const bumped = { ...structuredClone(out), revision: 2 };
    expect((await s.update('kube-system', 'agent-5d8b7c', bumped)).object.revision).toBe(2);
    const changed = { ...structuredClone(out), metadata: { ...out.metadata, resourceVersion: undefined }, data: { a: 1 } };
    const err = await rejected(s.update('kube-system', 'agent-5d8b7c', changed));
    expect(err.errStatus.message).toBe(
      'ControllerRevision.apps "agent-5d8b7c" is invalid: data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]byte{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d}, ContentEncoding:"", ContentType:"application/json"}: field is immutable',
    );
  });

  it('prints NAME CONTROLLER REVISION AGE', () => {
    const table = controllerRevisionDefinition.table;
    expect(table?.columns.map((c) => c.name)).toEqual(['Name', 'Controller', 'Revision', 'Age']);
    const object = revision();
    object.metadata.creationTimestamp = '2024-05-01T11:59:00Z';
    expect(table?.row(object, now)).toEqual(['agent-5d8b7c', 'daemonset.apps/agent', 1, '60s']);
    object.metadata.ownerReferences = [];
    expect(table?.row(object, now)[1]).toBe('<none>');
  });
});
