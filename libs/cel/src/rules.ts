// Validation rules of a structural schema (x-kubernetes-validations, also read as
// x-platform-validations), after apiextensions-apiserver/pkg/apiserver/schema/cel: every rule
// is compiled with `self` (and `oldSelf`) bound to the value at its node; a transition rule
// (one that reads oldSelf) runs only on update where an old value exists. A failed rule
// becomes one field error at its node (or at its fieldPath), typed by its reason.
import { CelInput } from '@bufbuild/cel';
import { childPath, field, FieldError, FieldPath, GoLiteral, goQuote } from '@plinth/machinery';
import { actualDeclType, codePoints, DeclType, maxCardinality, schemaDeclType, widenDeclType } from './check/decl-type';
import { maxUint64 } from './check/cost';
import { CompileError, compileExpression, OutputTypeError, Program } from './program';
import { cancelledMessage } from './evaluation-counts';
import { additionalPropertiesSchema, celTypeName, JSONSchemaProps, validationRules, ValidationRule, withRootMetadata } from './schema';
import { exactMember, toCelValue } from './values';

// perCallLimit and runtimeCostBudget are Kubernetes' limits: one rule's evaluation, and all
// rules of one custom resource together.
export const perCallLimit = 1_000_000;
export const runtimeCostBudget = 10_000_000;

interface CompiledRule {
  rule: ValidationRule;
  // self is the type of the node's values (null when the schema gives none).
  self: DeclType | null;
  program: Program | CompileError;
  message: Program | null;
  transition: boolean;
}

const ruleVariables = ['self', 'oldSelf'];

// ruleLiteral prints a rule as Go prints the apiextensions.ValidationRule a compile error names.
function ruleLiteral(rule: ValidationRule): GoLiteral {
  const reason = rule.reason ? `(*apiextensions.FieldValueErrorReason)(${goQuote(rule.reason)})` : '(*apiextensions.FieldValueErrorReason)(nil)';
  return new GoLiteral(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule)}, Message:${goQuote(rule.message ?? '')}, MessageExpression:${goQuote(rule.messageExpression ?? '')}, Reason:${reason}, FieldPath:${goQuote(rule.fieldPath ?? '')}}`,
  );
}

const compiledCache = new WeakMap<JSONSchemaProps, CompiledRule[]>();

function compileNode(schema: JSONSchemaProps): CompiledRule[] {
  let compiled = compiledCache.get(schema);
  if (!compiled) {
    compiled = validationRules(schema).map((rule) => {
      // A rule stored before it was checked may not compile; it fails each validation.
      const self = selfDeclType(schema, false);
      const program = compileOrError(rule.rule, self, 'bool');
      const message = rule.messageExpression ? compileOrError(rule.messageExpression, self, 'string') : null;
      return {
        rule,
        self,
        program,
        message: message instanceof CompileError ? null : message,
        transition: !(program instanceof CompileError) && program.references.has('oldSelf'),
      };
    });
    compiledCache.set(schema, compiled);
  }
  return compiled;
}

const validReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

// selfTypeCounter names each self type anew, as Kubernetes does (selfType<nanoseconds>), so
// that no rule can come to depend on the name.
let selfTypeCounter = 0;

// selfDeclType is the type self has in the rules of a schema node.
function selfDeclType(schema: JSONSchemaProps, isResourceRoot: boolean): DeclType | null {
  return schemaDeclType(schema, isResourceRoot || !!schema['x-kubernetes-embedded-resource'], `selfType${selfTypeCounter++}`);
}

// Rules already stored are compiled in the full environment; CRD writes in the one compatible
// with the previous release (environment.DefaultCompatibilityVersion).
function compileOrError(expression: string, self: DeclType | null, output: 'bool' | 'string'): Program | CompileError {
  try {
    return compileExpression(expression, ruleVariables, { self, environment: 'full', output });
  } catch (err) {
    if (err instanceof CompileError) return err;
    throw err;
  }
}

// PreexistingExpressions are the rules and message expressions the stored CRD already holds
// (preexistingExpressions): an update compiles these in the full environment, every other one
// in the environment compatible with the previous release.
export interface PreexistingExpressions {
  rules: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
}

export const noPreexistingExpressions: PreexistingExpressions = { rules: new Set(), messageExpressions: new Set() };

// findPreexistingExpressions is findPreexistingExpressions: every rule of the given schemas (a
// stored CRD's versions), at any depth. As in Kubernetes 1.28, the message expressions it
// records are the rules' texts of the rules that have one, not the message expressions
// themselves, so a stored message expression is compiled in the full environment only when it
// reads as such a rule.
export function findPreexistingExpressions(schemas: (JSONSchemaProps | undefined)[]): PreexistingExpressions {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const visit = (schema: JSONSchemaProps | undefined): void => {
    if (!schema || typeof schema !== 'object') return;
    for (const rule of validationRules(schema)) {
      if (typeof rule?.rule === 'string') rules.add(rule.rule);
      if (typeof rule?.rule === 'string' && typeof rule.messageExpression === 'string' && rule.messageExpression.length > 0) messageExpressions.add(rule.rule);
    }
    Object.values(schema.properties ?? {}).forEach(visit);
    visit(additionalPropertiesSchema(schema));
    visit(schema.items);
  };
  schemas.forEach(visit);
  return { rules, messageExpressions };
}

// validateRuleDefinitions checks the rules of a schema as a CRD write does
// (ValidateCustomResourceDefinitionOpenAPISchema): the rule's fields, then, when those are
// sound, compilation and the estimated cost. uncorrelatable is the path below which old values
// cannot be paired with new ones (items of lists that are not list-type map, properties of
// atomic maps), where a rule may not read oldSelf. preexisting are the expressions the stored
// CRD already holds (none on create).
export function validateRuleDefinitions(schema: JSONSchemaProps | undefined, path: FieldPath, preexisting = noPreexistingExpressions): FieldError[] {
  if (!schema || typeof schema !== 'object') return [];
  const total: CostTotal = { sum: 0, rules: [] };
  const found = ruleDefinitionErrors(schema, path, null, 1, total, preexisting, true);
  const errs = [...found.schema, ...found.cel];
  if (total.sum > staticEstimatedCRDCostLimit) {
    const expensive = total.rules.filter((r) => r.cost >= staticEstimatedCRDCostLimit / 100).sort((a, b) => b.cost - a.cost).slice(0, 4);
    for (const rule of expensive) errs.push(field.forbidden(rule.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(field.forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total.sum, staticEstimatedCRDCostLimit)));
  }
  return errs;
}

// CostTotal adds up the estimated costs of every rule of one schema.
interface CostTotal {
  sum: number;
  rules: { path: FieldPath; cost: number }[];
}

// RuleErrors are a schema's rule errors as ValidateCustomResourceDefinitionOpenAPISchema keeps
// them: those of the rules' own fields, then those of compiling them.
interface RuleErrors {
  schema: FieldError[];
  cel: FieldError[];
}

// ruleDefinitionErrors walks the schema, its children before its own rules; cardinality is how
// many times a rule at this node may run for one object (the product of maxItems and
// maxProperties above it), or null when a list or map above it is unbounded
// (CELSchemaContext.MaxCardinality). A node's rules are compiled only when no rule's fields at
// it or below are in error.
function ruleDefinitionErrors(
  schema: JSONSchemaProps,
  path: FieldPath,
  uncorrelatable: FieldPath | null,
  cardinality: number | null,
  total: CostTotal,
  preexisting: PreexistingExpressions,
  isRoot = false,
): RuleErrors {
  const errs: RuleErrors = { schema: [], cel: [] };
  if (!schema || typeof schema !== 'object') return errs;
  const add = (found: RuleErrors) => {
    errs.schema.push(...found.schema);
    errs.cel.push(...found.cel);
  };
  const atomicMap = schema['x-kubernetes-map-type'] === 'atomic';
  const childCardinality = cardinality === null ? null : childFactor(schema) === null ? null : sat(cardinality * (childFactor(schema) as number));
  const valueSchema = additionalPropertiesSchema(schema);
  if (valueSchema) add(ruleDefinitionErrors(valueSchema, path.child('additionalProperties'), uncorrelatable, childCardinality, total, preexisting));
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    add(ruleDefinitionErrors(child, path.child('properties').key(name), uncorrelatable ?? (atomicMap ? path : null), childCardinality, total, preexisting));
  }
  if (schema.items) {
    const correlatable = schema['x-kubernetes-list-type'] === 'map';
    add(ruleDefinitionErrors(schema.items, path.child('items'), uncorrelatable ?? (correlatable ? null : path), childCardinality, total, preexisting));
  }
  const declared = (['x-kubernetes-validations', 'x-platform-validations'] as const).flatMap((extension) => {
    const rules = schema[extension];
    return Array.isArray(rules) ? rules.map((rule, i) => ({ rule, rulePath: path.child(extension).index(i) })) : [];
  });
  if (declared.length === 0) return errs;
  for (const { rule, rulePath } of declared) errs.schema.push(...ruleFieldErrors(rule, schema, rulePath));
  if (errs.schema.length > 0) return errs;
  const node = { schema, self: selfDeclType(schema, isRoot), cardinality, uncorrelatable };
  for (const { rule, rulePath } of declared) errs.cel.push(...ruleCompileErrors(rule, node, rulePath, total, preexisting));
  return errs;
}

const sat = (n: number) => Math.min(n, maxUint64);

// childFactor is extractMaxElements: how many children a list or map node may hold (null:
// unbounded); an object's fields occur once each.
function childFactor(schema: JSONSchemaProps): number | null {
  const bound = (n: unknown) => (typeof n === 'number' ? Math.max(n, 0) : null);
  if (schema.type === 'array') return bound(schema.maxItems);
  if (schema.type === 'object' && schema.additionalProperties !== undefined && schema.additionalProperties !== false) return bound(schema.maxProperties);
  return 1;
}

interface RuleNode {
  schema: JSONSchemaProps;
  self: DeclType | null;
  cardinality: number | null;
  uncorrelatable: FieldPath | null;
}

// expressionCost is getExpressionCost: the estimate times how often the rule may run.
function expressionCost(program: Program, node: RuleNode): number {
  const max = program.estimate().max;
  if (max === 0) return 0;
  const cardinality = node.cardinality ?? maxCardinality(node.self?.minSerializedSize ?? 0);
  return sat(max * cardinality);
}

const lineBreaks = /[\n\r]+/;

// ruleFieldErrors checks a rule's own fields: its rule, message, messageExpression, reason and
// fieldPath.
function ruleFieldErrors(rule: ValidationRule, schema: JSONSchemaProps, rulePath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const text = typeof rule?.rule === 'string' ? rule.rule.trim() : '';
  const message = typeof rule?.message === 'string' ? rule.message : '';
  if (text === '') errs.push(field.required(rulePath.child('rule'), 'rule is not specified'));
  else if (message.length > 0 && message.trim() === '') errs.push(field.invalid(rulePath.child('message'), message, 'message must be non-empty if specified'));
  else if (lineBreaks.test(message.trim())) errs.push(field.invalid(rulePath.child('message'), message, 'message must not contain line breaks'));
  else if (lineBreaks.test(text) && message.trim() === '') errs.push(field.required(rulePath.child('message'), 'message must be specified if rule contains line breaks'));
  if (typeof rule?.messageExpression === 'string' && rule.messageExpression.length > 0 && rule.messageExpression.trim() === '') {
    errs.push(field.required(rulePath.child('messageExpression'), 'messageExpression must be non-empty if specified'));
  }
  if (rule?.reason !== undefined && !validReasons.includes(rule.reason)) errs.push(field.notSupported(rulePath.child('reason'), rule.reason, validReasons));
  const fieldPath = typeof rule?.fieldPath === 'string' ? rule.fieldPath : '';
  if (fieldPath.length > 0 && fieldPath.trim() === '') errs.push(field.invalid(rulePath.child('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
  if (lineBreaks.test(fieldPath)) errs.push(field.invalid(rulePath.child('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
  if (fieldPath.length > 0 && !validFieldPath(fieldPath, schema)) errs.push(field.invalid(rulePath.child('fieldPath'), fieldPath, 'fieldPath must be a valid path'));
  return errs;
}

// ruleCompileErrors compiles a rule and its messageExpression: compile errors, estimated costs
// over the budget, and oldSelf where no old value can be correlated.
function ruleCompileErrors(rule: ValidationRule, node: RuleNode, rulePath: FieldPath, total: CostTotal, preexisting: PreexistingExpressions): FieldError[] {
  const { self, uncorrelatable } = node;
  const errs: FieldError[] = [];
  let program: Program;
  try {
    program = compileExpression(rule.rule, ruleVariables, { self, environment: preexisting.rules.has(rule.rule) ? 'full' : 'compatible', output: 'bool' });
  } catch (err) {
    if (!(err instanceof CompileError)) throw err;
    return [field.invalid(rulePath.child('rule'), ruleLiteral(rule), err.detail)];
  }
  const cost = expressionCost(program, node);
  if (cost > staticEstimatedCostLimit) errs.push(field.forbidden(rulePath.child('rule'), costErrorMessage('estimated rule cost', cost, staticEstimatedCostLimit)));
  total.sum = sat(total.sum + cost);
  total.rules.push({ path: rulePath.child('rule'), cost });
  if (rule.messageExpression?.trim()) {
    try {
      const environment = preexisting.messageExpressions.has(rule.messageExpression) ? 'full' : 'compatible';
      const messageProgram = compileExpression(rule.messageExpression, ruleVariables, { self, environment, output: 'string' });
      const messageCost = messageProgram.estimate().max;
      if (messageCost > staticEstimatedCostLimit) {
        errs.push(field.forbidden(rulePath.child('messageExpression'), costErrorMessage('estimated messageExpression cost', messageCost, staticEstimatedCostLimit)));
      }
      total.sum = sat(total.sum + messageCost);
      total.rules.push({ path: rulePath.child('messageExpression'), cost: messageCost });
    } catch (err) {
      if (!(err instanceof CompileError)) throw err;
      const detail = err instanceof OutputTypeError ? err.message : `messageExpression compilation failed: ${err.message}`;
      errs.push(field.invalid(rulePath.child('messageExpression'), ruleLiteral(rule), detail));
    }
  }
  if (program.references.has('oldSelf') && uncorrelatable) {
    errs.push(field.invalid(rulePath.child('rule'), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable.toString()}`));
  }
  return errs;
}

// validFieldPath is cel.ValidFieldPath: `.name` and `['name']` steps through properties and
// map keys from the rule's node; list items cannot be addressed.
function validFieldPath(fieldPath: string, schema: JSONSchemaProps): boolean {
  let current: JSONSchemaProps | undefined = schema;
  let rest = fieldPath.trim();
  if (rest === '') return false;
  while (rest.length > 0) {
    const match = /^\.([a-zA-Z_][a-zA-Z0-9_-]*)|^\['((?:[^'\\]|\\.)*)'\]/.exec(rest);
    if (!match || !current) return false;
    const name = match[1] ?? match[2].replace(/\\(.)/g, '$1');
    const valueSchema: JSONSchemaProps | undefined = additionalPropertiesSchema(current);
    if (current.properties && Object.prototype.hasOwnProperty.call(current.properties, name)) current = current.properties[name];
    else if (valueSchema) current = valueSchema;
    else return false;
    rest = rest.slice(match[0].length);
  }
  return true;
}

// costErrorMessage is getCostErrorMessage: the factor by which an estimate exceeds its limit.
function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

// staticEstimatedCostLimit bounds a rule's estimated worst-case cost when a CRD is written;
// staticEstimatedCRDCostLimit the sum over all rules of one schema.
export const staticEstimatedCostLimit = 10_000_000;
export const staticEstimatedCRDCostLimit = 100_000_000;

// hasValidationRules reports whether any node of the schema declares a rule.
export function hasValidationRules(schema: JSONSchemaProps | undefined): boolean {
  if (!schema) return false;
  if (validationRules(schema).length > 0) return true;
  const valueSchema = additionalPropertiesSchema(schema);
  return Object.values(schema.properties ?? {}).some(hasValidationRules) || hasValidationRules(valueSchema) || hasValidationRules(schema.items);
}

// Budget is the cost left for one object's rules.
class Budget {
  remaining = runtimeCostBudget;
  exhausted = false;

  constructor(readonly transitionOnly: boolean) {}
}

// validateRules runs every rule of the schema over value (and old, on update); with
// transitionOnly, only the rules that read oldSelf.
export function validateRules(schema: JSONSchemaProps, value: unknown, old: unknown, path: FieldPath | null = null, transitionOnly = false): FieldError[] {
  const errs: FieldError[] = [];
  walk(path === null ? withRootMetadata(schema) : schema, value, old, path, errs, new Budget(transitionOnly));
  return errs;
}

function walk(schema: JSONSchemaProps, value: unknown, old: unknown, path: FieldPath | null, errs: FieldError[], budget: Budget): void {
  if (value === undefined || value === null || budget.exhausted) return;
  const rules = compileNode(schema);
  if (rules.length > 0) runRules(schema, rules, value, old, path, errs, budget);
  if (Array.isArray(value)) {
    if (!schema.items) return;
    const oldItems = correlateListItems(schema, value, old);
    value.forEach((_, i) => walk(schema.items as JSONSchemaProps, exactMember(value, i), exactMember(oldItems, i), childIndex(path, i), errs, budget));
    return;
  }
  if (typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  // The properties of an atomic map are not correlated with their old values.
  const correlated = schema['x-kubernetes-map-type'] !== 'atomic';
  const oldObj = correlated && old && typeof old === 'object' && !Array.isArray(old) ? (old as Record<string, unknown>) : undefined;
  if (schema.properties) {
    for (const [name, child] of Object.entries(schema.properties)) {
      if (name in obj) walk(child, exactMember(obj, name), oldObj && exactMember(oldObj, name), childPath(path, name), errs, budget);
    }
    return;
  }
  const valueSchema = additionalPropertiesSchema(schema);
  if (valueSchema) for (const key of Object.keys(obj)) walk(valueSchema, exactMember(obj, key), oldObj && exactMember(oldObj, key), childKey(path, key), errs, budget);
}

// childIndex and childKey subscript a possibly nil path; under nil they print as `[0]`.
function childIndex(path: FieldPath | null, i: number): FieldPath {
  return path ? path.index(i) : field.newPath(`[${i}]`);
}

function childKey(path: FieldPath | null, key: string): FieldPath {
  return path ? path.key(key) : field.newPath(`[${key}]`);
}

// correlateListItems pairs list items with their old twins by key for list-type map; other
// lists are not correlated (Kubernetes forbids transition rules below them).
function correlateListItems(schema: JSONSchemaProps, value: unknown[], old: unknown): unknown[] {
  if (!Array.isArray(old)) return [];
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const keyOf = (item: unknown) => JSON.stringify(keys.map((k) => (item as Record<string, unknown> | null)?.[k]));
    const byKey = new Map(old.map((item) => [keyOf(item), item]));
    return value.map((item) => byKey.get(keyOf(item)));
  }
  return [];
}

// SizedValue holds the sizes of one node's value (and its old value) for its rules' costs:
// self's type with the values' sizes in place of the schema's bounds, and the largest size in
// them for what has no path to the value (literals' elements, intermediate results).
interface SizedValue {
  decl: DeclType;
  largest: number;
}

// RuleRun is one evaluation of a rule with the cost cel-go's tracker charges for it.
interface RuleRun {
  result: unknown;
  error: Error | null;
  cost: number;
  cancelled: boolean;
}

// runRule evaluates a rule and charges what ran (sizes caches the node's sizes for its rules).
function runRule(program: Program, self: DeclType | null, bindings: Record<string, CelInput>, value: unknown, old: unknown, sizes: Map<DeclType, SizedValue>): RuleRun {
  const counts = program.counts(perCallLimit);
  let result: unknown = null;
  let error: Error | null = null;
  try {
    result = program.evaluate(bindings, counts);
  } catch (err) {
    error = err as Error;
  }
  if (!self) return { result, error, cost: 0, cancelled: counts.cancelled };
  let sized = sizes.get(self);
  if (!sized) {
    const decl = old === undefined || old === null ? actualDeclType(self, value) : widenDeclType(actualDeclType(self, value), actualDeclType(self, old));
    sized = { decl, largest: Math.max(largestSize(value), largestSize(old), 1) };
    sizes.set(self, sized);
  }
  const cost = program.runtimeCost(sized.decl, sized.largest, counts);
  return { result, error, cost, cancelled: counts.cancelled || cost > perCallLimit };
}

// ruleRuntimeCost is the cost validation charges for one rule of a schema node over a value
// (isResourceRoot: the node is a custom resource's root).
export function ruleRuntimeCost(schema: JSONSchemaProps, value: unknown, rule: string, isResourceRoot = false): number {
  const self = selfDeclType(schema, isResourceRoot);
  const program = compileExpression(rule, ruleVariables, { self, environment: 'full', output: 'bool' });
  const node = isResourceRoot ? withRootMetadata(schema) : schema;
  return runRule(program, self, { self: toCelValue(value, node), oldSelf: null }, value, undefined, new Map()).cost;
}

// largestSize is the longest string, list or map anywhere in a value.
function largestSize(value: unknown): number {
  if (typeof value === 'string') return codePoints(value);
  if (!value || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  let largest = children.length;
  if (!Array.isArray(value)) for (const key of Object.keys(value)) largest = Math.max(largest, key.length);
  for (const child of children) largest = Math.max(largest, largestSize(child));
  return largest;
}

function runRules(schema: JSONSchemaProps, rules: CompiledRule[], value: unknown, old: unknown, path: FieldPath | null, errs: FieldError[], budget: Budget): void {
  const typeName = celTypeName(schema);
  const self = toCelValue(value, schema);
  const hasOld = old !== undefined && old !== null;
  const bindings: Record<string, CelInput> = { self, oldSelf: hasOld ? toCelValue(old, schema) : null };
  const sizes = new Map<DeclType, SizedValue>();
  for (const compiled of rules) {
    if (compiled.transition ? !hasOld : budget.transitionOnly) continue;
    const program = compiled.program;
    if (program instanceof CompileError) {
      errs.push(field.invalid(path, typeName, `rule compile error: ${program.detail}`));
      continue;
    }
    const run = runRule(program, compiled.self, bindings, value, old, sizes);
    // cel-go stops a run as soon as its cost exceeds the limit: at most the limit is charged
    budget.remaining -= Math.min(run.cost, perCallLimit);
    if (budget.remaining < 0) {
      budget.exhausted = true;
      errs.push(field.invalid(path, typeName, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      return;
    }
    if (run.cancelled) {
      // Kubernetes runs no further rule
      errs.push(field.invalid(path, typeName, `'${cancelledMessage}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(compiled.rule)}`));
      budget.exhausted = true;
      return;
    }
    if (run.error) {
      errs.push(field.invalid(path, typeName, `${run.error.message} evaluating rule: ${ruleErrorString(compiled.rule)}`));
      continue;
    }
    const result = run.result;
    if (typeof result !== 'boolean') {
      errs.push(field.invalid(path, typeName, `rule result is not bool evaluating rule: ${ruleErrorString(compiled.rule)}`));
      continue;
    }
    if (result) continue;
    const fieldPath = rulePath(path, compiled.rule.fieldPath);
    const detail = failureMessage(compiled, bindings, value, old, sizes, budget);
    if (detail instanceof Stop) {
      errs.push(field.invalid(fieldPath, typeName, detail.message));
      budget.exhausted = true;
      return;
    }
    errs.push(ruleError(compiled, fieldPath, typeName, detail));
  }
}

// Stop is a messageExpression's run that ends the validation of the object.
class Stop {
  constructor(readonly message: string) {}
}

// maxMessageSize bounds an evaluated messageExpression (MaxEvaluatedMessageExpressionSizeBytes).
const maxMessageSize = 5 * 1024;

// failureMessage is the message of a failed rule: its messageExpression's, charged to the
// object's budget as a rule is, falling back to the static message when it fails.
function failureMessage(compiled: CompiledRule, bindings: Record<string, CelInput>, value: unknown, old: unknown, sizes: Map<DeclType, SizedValue>, budget: Budget): string | Stop {
  if (compiled.message) {
    const run = runRule(compiled.message, compiled.self, bindings, value, old, sizes);
    budget.remaining -= Math.min(run.cost, perCallLimit);
    if (budget.remaining < 0) return new Stop('messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run');
    if (run.cancelled) return new Stop(`no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(compiled.message.expression)}`);
    const text = typeof run.result === 'string' && !run.error ? run.result.trim() : '';
    if (text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= maxMessageSize) return text;
  }
  if (compiled.rule.message) return compiled.rule.message;
  return `failed rule: ${compiled.rule.rule.trim()}`;
}

// ruleErrorString names a rule in an evaluation error: its message, else its text.
function ruleErrorString(rule: ValidationRule): string {
  return rule.message && rule.message.length > 0 ? rule.message.trim() : rule.rule.trim();
}

function ruleError(compiled: CompiledRule, path: FieldPath | null, typeName: string, detail: string): FieldError {
  switch (compiled.rule.reason) {
    case 'FieldValueForbidden':
      return field.forbidden(path, detail);
    case 'FieldValueRequired':
      return field.required(path, detail);
    case 'FieldValueDuplicate':
      return field.duplicate(path, typeName);
    default:
      return field.invalid(path, typeName, detail);
  }
}

// rulePath appends a rule's fieldPath (`.spec.foo`, `['a.b']`, `[0]`) to the node's path.
function rulePath(path: FieldPath | null, fieldPath: string | undefined): FieldPath | null {
  if (!fieldPath) return path;
  let out = path;
  const re = /\.([a-zA-Z_][a-zA-Z0-9_-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(fieldPath)) !== null) {
    if (match[1] !== undefined) out = childPath(out, match[1]);
    else if (match[2] !== undefined) out = childKey(out, match[2]);
    else out = childIndex(out, Number(match[3]));
  }
  return out;
}
