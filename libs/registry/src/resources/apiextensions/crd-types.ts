// The shapes of apiextensions.k8s.io/v1 CustomResourceDefinition the registry reads.
import { KubeObject } from '@plinth/api';
import { JSONSchemaProps } from '@plinth/cel';

export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: PrinterColumn[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdObject extends KubeObject {
  spec: {
    group: string;
    names: CrdNames;
    scope: 'Namespaced' | 'Cluster';
    versions: CrdVersion[];
    conversion?: {
      strategy: string;
      webhook?: { clientConfig?: { url?: string; service?: object; caBundle?: string }; conversionReviewVersions?: string[] };
    };
    preserveUnknownFields?: boolean;
  };
  status?: {
    acceptedNames?: CrdNames;
    conditions?: CrdCondition[];
    storedVersions?: string[];
  };
}

// customResourceCleanupFinalizer holds a deleted CRD until its custom resources are gone.
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export function crdCondition(crd: CrdObject, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isEstablished(crd: CrdObject): boolean {
  return crdCondition(crd, 'Established')?.status === 'True';
}

// setCrdCondition is SetCRDCondition: the transition time moves only when the status changes.
export function setCrdCondition(crd: CrdObject, condition: CrdCondition, now: string): void {
  crd.status ??= {};
  const conditions = crd.status.conditions ?? [];
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: now });
  } else {
    if (existing.status !== condition.status) existing.lastTransitionTime = now;
    existing.status = condition.status;
    existing.reason = condition.reason;
    existing.message = condition.message;
  }
  crd.status.conditions = conditions;
}
