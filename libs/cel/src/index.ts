export { escapePropertyName, unescapePropertyName } from './escaping';
export { JSONSchemaProps, ValidationRule, validationRules, additionalPropertiesSchema, celTypeName } from './schema';
export { toCelValue } from './values';
export { kubernetesLibraries } from './libraries';
export { compileExpression, CompileError, Program } from './program';
export { validateRules, validateRuleDefinitions, findPreexistingExpressions, noPreexistingExpressions, PreexistingExpressions, hasValidationRules, perCallLimit, runtimeCostBudget } from './rules';
export { patternMatcher, PatternMatcher } from './regex';
