// The cases of Kubernetes 1.28's TestValidationExpressions (apiextensions-apiserver
// pkg/apiserver/schema/cel/validation_test.go) as data: validation-expressions.json holds each
// case's schema and object with the rules that must hold and the rules that must fail with a
// message; kube-apiserver's behaviour, not its test code. outcome runs one rule as the
// validator of a stored CRD does: compiled in the full environment, then evaluated.
import { field } from '@plinth/machinery';
import { validateRules } from '../rules';
import { JSONSchemaProps } from '../schema';
import data from './validation-expressions.json';

export interface ExpressionCase {
  name: string;
  // isRoot: the schema is a custom resource's, whose rules see apiVersion, kind and metadata.
  isRoot?: boolean;
  schema: JSONSchemaProps;
  object: unknown;
  valid: string[];
  errors: Record<string, string>;
}

// fromJson turns the `{"$float": "10.0"}` marks of Go float literals into numbers.
function fromJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJson);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.$float === 'string') return Number(record.$float);
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fromJson(v)]));
  }
  return value;
}

export const expressionCases: ExpressionCase[] = (data as unknown as ExpressionCase[]).map((c) => ({ ...c, object: fromJson(c.object) }));

// outcome is what becomes of a rule: '' when it compiles and holds, else its messages.
export function outcome(c: ExpressionCase, rule: string): string {
  const schema: JSONSchemaProps = { ...c.schema, 'x-kubernetes-validations': [{ rule }] };
  return validateRules(schema, c.object, undefined, c.isRoot ? null : field.newPath('self'))
    .map(String)
    .join('\n');
}
