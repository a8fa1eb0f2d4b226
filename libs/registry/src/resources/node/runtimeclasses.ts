// RuntimeClasses (node.platform.io/v1), after pkg/apis/node/validation: a DNS-label handler
// that never changes, pod overhead quantities, and scheduling constraints.
import { kindSchema, s, tolerationSchema } from '@plinth/api';
import { field, FieldError, GoLiteral, validation } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';
import { validateResourceRequirements, validateTolerations } from '../core/pod-validation';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function tolerationLiteral(t: Obj): GoLiteral {
  const seconds = typeof t.tolerationSeconds === 'number' ? `(*int64)(${t.tolerationSeconds})` : '(*int64)(nil)';
  const q = (v: unknown) => JSON.stringify(str(v));
  return new GoLiteral(`core.Toleration{Key:${q(t.key)}, Operator:${q(t.operator)}, Value:${q(t.value)}, Effect:${q(t.effect)}, TolerationSeconds:${seconds}}`);
}

// validateRuntimeClass is ValidateRuntimeClass without the object meta. Kubernetes addresses
// overhead errors to overhead.limits and toleration errors to scheduling.tolerations.tolerations.
export function validateRuntimeClass(rc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const handler = str(rc.handler);
  errs.push(...validation.isDNS1123Label(handler).map((m) => field.invalid(field.newPath('handler'), handler, m)));
  if (isObj(rc.overhead)) {
    errs.push(...validateResourceRequirements({ limits: isObj(rc.overhead.podFixed) ? rc.overhead.podFixed : {} }, field.newPath('overhead')));
  }
  if (isObj(rc.scheduling)) {
    const path = field.newPath('scheduling');
    const nodeSelector = rc.scheduling.nodeSelector;
    if (isObj(nodeSelector)) errs.push(...validation.validateLabels(nodeSelector as Record<string, string>, path.child('nodeSelector')));
    const tolerations = Array.isArray(rc.scheduling.tolerations) ? rc.scheduling.tolerations : [];
    const tolerationsPath = path.child('tolerations');
    errs.push(...validateTolerations(tolerations, tolerationsPath.child('tolerations')));
    const seen = new Set<string>();
    tolerations.forEach((t: unknown, i: number) => {
      const tol = isObj(t) ? t : {};
      const key = JSON.stringify([str(tol.key), str(tol.operator), str(tol.value), str(tol.effect)]);
      if (seen.has(key)) errs.push(field.duplicate(tolerationsPath.index(i), tolerationLiteral(tol)));
      else seen.add(key);
    });
  }
  return errs;
}

export const runtimeClassStrategy: ResourceStrategy = {
  validate: (rc) => validateRuntimeClass(rc),
  validateUpdate: (rc, old) =>
    str(rc.handler) !== str(old.handler) ? [field.invalid(field.newPath('handler'), str(rc.handler), 'field is immutable')] : [],
};

export const runtimeClassDefinition: ResourceDefinition = {
  group: 'node.platform.io',
  version: 'v1',
  resource: 'runtimeclasses',
  singular: 'runtimeclass',
  kind: 'RuntimeClass',
  listKind: 'RuntimeClassList',
  namespaced: false,
  verbs: objectVerbs,
  tracksGeneration: false,
  hasStatus: false,
  schema: kindSchema(
    {
      handler: s.string('handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.'),
      overhead: s.object({ podFixed: s.map(s.quantity(), { description: 'podFixed represents the fixed resource overhead associated with running a pod.' }) }, { ref: 'io.k8s.api.node.v1.Overhead' }),
      scheduling: s.object(
        {
          nodeSelector: { ...s.stringMap('nodeSelector lists labels that must be present on nodes that support this RuntimeClass.'), mapType: 'atomic' },
          tolerations: s.atomicList(tolerationSchema, 'tolerations are appended (excluding duplicates) to pods running with this RuntimeClass during admission.'),
        },
        { ref: 'io.k8s.api.node.v1.Scheduling' },
      ),
    },
    'RuntimeClass defines a class of container runtime supported in the cluster.',
    { required: ['handler'], ref: 'io.k8s.api.node.v1.RuntimeClass' },
  ),
  strategy: runtimeClassStrategy,
  zeroValue: { handler: '' },
  table: {
    // Handler's description is empty: printers.go looks "handler" up in ObjectMeta's SwaggerDoc.
    columns: [nameColumn, column('Handler', 'string', ''), ageColumn],
    row: (rc, now) => [rc.metadata.name ?? '', str(rc.handler), age(rc, now)],
  },
  nameValidation: 'dns-subdomain',
};
