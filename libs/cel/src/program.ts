// compileExpression parses one CEL expression and plans it over the Kubernetes libraries,
// after apiserver/pkg/cel/environment: the variables are declared up front, so a reference to
// anything else fails to compile. The static cost estimate stands in for cel-go's cost
// tracker: each expression node costs one unit, multiplied by the size of the values a
// comprehension walks (known only at run time, so that factor is applied in evaluate()).
import { celEnv, CelInput, CelValue, isCelError, parse, plan } from '@bufbuild/cel';
import { kubernetesLibraries } from './libraries';

const env = celEnv({ funcs: kubernetesLibraries });

// typeIdentifiers are names a rule may use without declaring them (type conversions, null).
const typeIdentifiers = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn', 'timestamp', 'duration']);

export interface Program {
  readonly expression: string;
  // nodes counts the expression's nodes; comprehensionDepth the deepest nesting of macros.
  readonly nodes: number;
  readonly comprehensionDepth: number;
  readonly references: ReadonlySet<string>;
  evaluate(bindings: Record<string, CelInput>): CelValue;
}

export class CompileError extends Error {}

interface ExprNode {
  exprKind?: { case?: string; value?: unknown };
}

// scan walks the parsed protobuf expression, counting nodes and collecting free identifiers.
function scan(node: unknown, bound: Set<string>, out: { nodes: number; depth: number; refs: Set<string> }, depth: number): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) scan(n, bound, out, depth);
    return;
  }
  const kind = (node as ExprNode).exprKind;
  if (kind && typeof kind === 'object' && 'case' in kind) {
    out.nodes++;
    if (kind.case === 'identExpr') {
      const name = (kind.value as { name: string }).name;
      if (!bound.has(name)) out.refs.add(name);
      return;
    }
    if (kind.case === 'comprehensionExpr') {
      const c = kind.value as { iterVar: string; accuVar: string; iterRange: unknown; accuInit: unknown; loopCondition: unknown; loopStep: unknown; result: unknown };
      out.depth = Math.max(out.depth, depth + 1);
      scan(c.iterRange, bound, out, depth);
      scan(c.accuInit, bound, out, depth);
      const inner = new Set([...bound, c.iterVar, c.accuVar]);
      scan(c.loopCondition, inner, out, depth + 1);
      scan(c.loopStep, inner, out, depth + 1);
      scan(c.result, inner, out, depth + 1);
      return;
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$typeName') scan(value, bound, out, depth);
  }
}

export function compileExpression(expression: string, variables: readonly string[]): Program {
  let parsed;
  try {
    parsed = parse(expression);
  } catch (err) {
    throw new CompileError(`ERROR: ${(err as Error).message}`);
  }
  const out = { nodes: 0, depth: 0, refs: new Set<string>() };
  scan(parsed.expr, new Set(), out, 0);
  for (const ref of out.refs) {
    if (!variables.includes(ref) && !typeIdentifiers.has(ref)) throw new CompileError(`ERROR: <input>:1:1: undeclared reference to '${ref}' (in container '')`);
  }
  const run = plan(env, parsed);
  return {
    expression,
    nodes: out.nodes,
    comprehensionDepth: out.depth,
    references: out.refs,
    evaluate(bindings) {
      const result = run(bindings as never);
      if (isCelError(result)) throw new Error(celGoMessage(result.message));
      return result;
    },
  };
}

// celGoMessage words an evaluation error as cel-go does, where the two differ.
function celGoMessage(message: string): string {
  return message.replace(/^field not found: /, 'no such key: ');
}
