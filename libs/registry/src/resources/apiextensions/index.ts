export { customResourceDefinitionDefinition, crdStrategy } from './customresourcedefinitions';
export { customResourceDefinitionsOf, toRegistrySchema, printerValue } from './custom-resource';
export { validateStructural } from './crd-validation';
export { validateValue, applyDefaults } from './schema-validation';
export { CrdObject, CrdNames, CrdVersion, CrdCondition, PrinterColumn, customResourceCleanupFinalizer, crdCondition, isEstablished, setCrdCondition } from './crd-types';
