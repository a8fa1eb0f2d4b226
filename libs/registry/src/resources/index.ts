// builtinDefinitions lists every built-in served type, in discovery order.
import { ResourceDefinition } from '../resource';
import { customResourceDefinitionDefinition } from './apiextensions';
import { controllerRevisionDefinition, daemonSetDefinition } from './apps';
import { selfSubjectReviewDefinitions, tokenReviewDefinition } from './authentication';
import {
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  subjectAccessReviewDefinition,
} from './authorization';
import { jobDefinition } from './batch';
import { leaseDefinition } from './coordination';
import { namespaceDefinition, nodeDefinition, podDefinition, serviceAccountDefinition } from './core';
import { runtimeClassDefinition } from './node';
import { clusterRoleBindingDefinition, clusterRoleDefinition, roleBindingDefinition, roleDefinition } from './rbac';
import { storageClassDefinition } from './storage';

export function builtinDefinitions(): ResourceDefinition[] {
  return [
    namespaceDefinition,
    podDefinition,
    nodeDefinition,
    serviceAccountDefinition,
    daemonSetDefinition,
    controllerRevisionDefinition,
    jobDefinition,
    subjectAccessReviewDefinition,
    localSubjectAccessReviewDefinition,
    selfSubjectAccessReviewDefinition,
    selfSubjectRulesReviewDefinition,
    ...selfSubjectReviewDefinitions,
    tokenReviewDefinition,
    clusterRoleDefinition,
    clusterRoleBindingDefinition,
    roleDefinition,
    roleBindingDefinition,
    storageClassDefinition,
    runtimeClassDefinition,
    leaseDefinition,
    customResourceDefinitionDefinition,
  ];
}
