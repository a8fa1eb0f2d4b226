// checkFieldAccess is the part of cel-go's type checker that matters most to rule authors:
// field selections on self and oldSelf (and on comprehension variables over them) are checked
// against the schema, so a misspelt field fails when the CRD is written, not when a resource is.
// Messages and positions are cel-go's: `ERROR: <input>:1:5: undefined field 'foo'` followed by
// the source line and a caret.
import { escapePropertyName, unescapePropertyName } from './escaping';
import { additionalPropertiesSchema, JSONSchemaProps } from './schema';

interface Expr {
  id: bigint;
  exprKind: { case?: string; value?: unknown };
}

export interface Found {
  offset: number;
  message: string;
}

const embeddedFields = ['apiVersion', 'kind', 'metadata'];

function celTypeOf(schema: JSONSchemaProps): string {
  if (schema['x-kubernetes-int-or-string']) return 'dyn';
  switch (schema.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    default:
      return 'dyn';
  }
}

class Checker {
  readonly found: Found[] = [];

  constructor(private readonly positions: Record<string, number>) {}

  private offset(expr: Expr): number {
    return this.positions[String(expr.id)] ?? 0;
  }

  // type returns the schema of an expression when it is known, checking along the way.
  type(expr: Expr | undefined, scope: Map<string, JSONSchemaProps | null>): JSONSchemaProps | null {
    if (!expr?.exprKind) return null;
    const { case: kind, value } = expr.exprKind;
    switch (kind) {
      case 'identExpr':
        return scope.get((value as { name: string }).name) ?? null;
      case 'selectExpr': {
        const select = value as { operand: Expr; field: string };
        const operand = this.type(select.operand, scope);
        return operand ? this.select(operand, select.field, expr) : null;
      }
      case 'callExpr': {
        const call = value as { function: string; target?: Expr; args: Expr[] };
        // The target and arguments are checked; only indexing keeps a known type.
        if (call.target) this.type(call.target, scope);
        const args = call.args.map((a) => this.type(a, scope));
        if (call.function === '_[_]' && args[0]) {
          if (args[0].type === 'array') return args[0].items ?? null;
          return additionalPropertiesSchema(args[0]) ?? null;
        }
        return null;
      }
      case 'comprehensionExpr': {
        const c = value as { iterVar: string; accuVar: string; iterRange: Expr; accuInit: Expr; loopCondition: Expr; loopStep: Expr; result: Expr };
        const range = this.type(c.iterRange, scope);
        this.type(c.accuInit, scope);
        const element = range?.type === 'array' ? range.items ?? null : range?.type === 'object' ? ({ type: 'string' } as JSONSchemaProps) : null;
        const inner = new Map(scope);
        inner.set(c.iterVar, element);
        inner.set(c.accuVar, null);
        this.type(c.loopCondition, inner);
        this.type(c.loopStep, inner);
        this.type(c.result, inner);
        return null;
      }
      case 'listExpr':
        for (const e of (value as { elements: Expr[] }).elements) this.type(e, scope);
        return null;
      case 'structExpr':
        for (const entry of (value as { entries: { mapKey?: Expr; value?: Expr }[] }).entries) {
          this.type(entry.mapKey, scope);
          this.type(entry.value, scope);
        }
        return null;
      default:
        return null;
    }
  }

  private select(schema: JSONSchemaProps, field: string, expr: Expr): JSONSchemaProps | null {
    const valueSchema = additionalPropertiesSchema(schema);
    // An object without properties is a struct with no fields: unknown fields kept by
    // x-kubernetes-preserve-unknown-fields are not accessible.
    if (schema.type === 'object' && (schema.properties || (!valueSchema && schema.additionalProperties !== true))) {
      const name = unescapePropertyName(field);
      const properties = schema.properties ?? {};
      if (Object.prototype.hasOwnProperty.call(properties, name) && escapePropertyName(name) === field) return properties[name];
      if (schema['x-kubernetes-embedded-resource'] && embeddedFields.includes(name)) return null;
      this.found.push({ offset: this.offset(expr), message: `undefined field '${field}'` });
      return null;
    }
    if (valueSchema) return valueSchema;
    if (schema.type === 'object' || schema.type === undefined) return null;
    const celType = celTypeOf(schema);
    if (celType !== 'dyn') this.found.push({ offset: this.offset(expr), message: `type '${celType}' does not support field selection` });
    return null;
  }
}

// checkFieldAccess returns cel-go formatted errors, or an empty string when none are found.
export function checkFieldAccess(expression: string, parsedExpr: unknown, positions: Record<string, number>, self: JSONSchemaProps): string {
  const checker = new Checker(positions);
  checker.type(parsedExpr as Expr, new Map([
    ['self', self],
    ['oldSelf', self],
  ]));
  return checker.found.map((f) => formatError(expression, f)).join('\n');
}

// formatError prints an error at an offset of the expression as cel-go does: position, message,
// the source line and a caret under the offending character.
export function formatError(expression: string, found: Found): string {
  const before = expression.slice(0, found.offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = found.offset - lineStart + 1;
  const sourceLine = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${found.message}\n | ${sourceLine}\n | ${'.'.repeat(column - 1)}^`;
}
