// compileExpression parses one CEL expression and plans it over the Kubernetes libraries,
// after apiserver/pkg/cel/environment: the variables are declared up front, so a reference to
// anything else fails to compile. Costs follow cel-go's model (see expressionCost), with the
// size of the collections a comprehension walks given by the caller: the worst case the
// schema allows when a CRD is written, the largest collection in the object when it runs.
import { celEnv, CelInput, CelValue, isCelError, parse, plan } from '@bufbuild/cel';
import { kubernetesLibraries, typedOverloads } from './libraries';
import { listOperators } from './lists';
import { Regex } from './regex';
import { check, CheckedExpression, Expr } from './check/checker';
import { DeclType } from './check/decl-type';
import { Environment } from './check/declarations';
import { Estimate, estimateCost } from './check/cost';
import { BOOL, CelType, DYN, formatType, STRING } from './check/types';
import { formatError } from './typecheck';

const env = celEnv({ funcs: [...kubernetesLibraries, ...listOperators] });

export interface Program {
  readonly expression: string;
  readonly references: ReadonlySet<string>;
  // cost is the expression's cost when every comprehension walks collectionSize elements and
  // every string a regular expression runs over is stringLength long.
  cost(collectionSize: number, stringLength: number): number;
  // estimate is the worst-case cost cel-go's estimator gives from self's declared type.
  estimate(): Estimate;
  evaluate(bindings: Record<string, CelInput>): CelValue;
}

// CompileError is a rule that does not compile; its detail is Kubernetes' whole message.
export class CompileError extends Error {
  get detail(): string {
    return `compilation failed: ${this.message}`;
  }
}

// OutputTypeError is a rule that type-checks to something other than what its field needs;
// Kubernetes words it without the "compilation failed" prefix.
export class OutputTypeError extends CompileError {
  override get detail(): string {
    return this.message;
  }
}

// InstantiationError is a rule that compiles but cannot be planned: a literal regular
// expression that is not RE2, as cel-go's regex optimization finds when the program is made.
export class InstantiationError extends CompileError {
  override get detail(): string {
    return `program instantiation failed: ${this.message}`;
  }
}

// checkRegexLiterals compiles every literal pattern of matches, find and findAll.
function checkRegexLiterals(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) checkRegexLiterals(n);
    return;
  }
  const kind = (node as ExprNode).exprKind;
  if (kind?.case === 'callExpr') {
    const call = kind.value as { function: string; target?: unknown; args: unknown[] };
    const literal = regexFunctions.has(call.function) ? stringLiteral(call.target ? call.args[0] : call.args[1]) : null;
    if (literal !== null) {
      try {
        new Regex(literal);
      } catch (err) {
        throw new InstantiationError((err as Error).message);
      }
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$typeName') checkRegexLiterals(value);
  }
}

function stringLiteral(node: unknown): string | null {
  const kind = (node as ExprNode | undefined)?.exprKind;
  if (kind?.case !== 'constExpr') return null;
  const constant = (kind.value as { constantKind?: { case?: string; value?: unknown } }).constantKind;
  return constant?.case === 'stringValue' ? (constant.value as string) : null;
}

interface ExprNode {
  exprKind?: { case?: string; value?: unknown };
}

// CompileOptions say what self (and oldSelf) is and in which environment to check: with a
// type, the expression is type-checked as cel-go checks it; without, the variables are dyn.
export interface CompileOptions {
  self?: DeclType | null;
  environment?: Environment;
  // output is the type the expression must have: bool for a rule, string for a message.
  output?: 'bool' | 'string';
}

// compileExpression compiles an expression over the declared variables.
export function compileExpression(expression: string, variables: readonly string[], options: CompileOptions = {}): Program {
  let parsed;
  try {
    parsed = parse(expression);
  } catch (err) {
    const cause = ((err as { cause?: unknown }).cause ?? err) as { rawMessage?: string; location?: { start?: { offset?: number } } };
    const offset = cause.location?.start?.offset;
    if (cause.rawMessage === undefined || offset === undefined) throw new CompileError(`ERROR: ${(err as Error).message}`);
    throw new CompileError(formatError(expression, { offset, message: `Syntax error: ${cause.rawMessage}` }));
  }
  const selfType: CelType = options.self?.type ?? DYN;
  const declared = new Map<string, CelType>(variables.map((v) => [v, selfType]));
  const positions = (parsed.sourceInfo?.positions ?? {}) as Record<string, number>;
  const checked = check(expression, parsed.expr as unknown as Expr, positions, declared, options.environment ?? 'full');
  if (checked.issues.length > 0) throw new CompileError(checked.issues.map((issue) => formatError(expression, issue)).join('\n'));
  if (options.output === 'bool' && formatType(checked.outputType) !== formatType(BOOL)) throw new OutputTypeError('cel expression must evaluate to a bool');
  if (options.output === 'string' && formatType(checked.outputType) !== formatType(STRING)) throw new OutputTypeError('messageExpression must evaluate to a string');
  checkRegexLiterals(parsed.expr);
  callTypedOverloads(parsed.expr as unknown as Expr, checked);
  const run = plan(env, parsed);
  const self = options.self;
  return {
    expression,
    references: checked.references,
    cost: (collectionSize, stringLength) => expressionCost(parsed.expr, { collection: collectionSize, string: stringLength }),
    estimate: () => (self ? estimateCost(parsed.expr as unknown as Expr, checked, self) : { min: 0, max: 0 }),
    evaluate(bindings) {
      const result = run(bindings as never);
      if (isCelError(result)) throw new Error(celGoMessage(result.message));
      return result;
    },
  };
}

export type { CheckedExpression };

// callTypedOverloads renames the calls the checker resolved to one of typedOverloads, so that
// the runtime runs the function of that overload.
function callTypedOverloads(node: unknown, checked: CheckedExpression): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) callTypedOverloads(n, checked);
    return;
  }
  const expr = node as Expr;
  if (expr.exprKind?.case === 'callExpr') {
    const overloads = checked.overloads.get(expr.id);
    const renamed = overloads?.length === 1 ? typedOverloads[overloads[0]] : undefined;
    if (renamed) (expr.exprKind.value as { function: string }).function = renamed;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$typeName') callTypedOverloads(value, checked);
  }
}

// freeOperators cost nothing beyond their operands in cel-go's cost model.
const freeOperators = new Set(['_&&_', '_||_', '!_', '@not_strictly_false', '_?_:_']);

// listLiteralCost is the base cost of a list literal (Document 2's Limits table).
const listLiteralCost = 40;

interface Sizes {
  collection: number;
  string: number;
}

// libraryCosts are the costs of library calls that walk their receiver (Kubernetes'
// library.CostEstimator): a list function traverses the list, a string function the string.
const libraryCosts: Record<string, (size: Sizes) => number> = {
  ...Object.fromEntries(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf'].map((name) => [name, (size: Sizes) => size.collection])),
  ...Object.fromEntries(['url', 'lowerAscii', 'upperAscii', 'substring', 'trim'].map((name) => [name, (size: Sizes) => Math.ceil(size.string * stringTraversalCostFactor)])),
  ...Object.fromEntries(['replace', 'split', 'join'].map((name) => [name, (size: Sizes) => Math.ceil(size.string * 2 * stringTraversalCostFactor)])),
};

// regexFunctions run a regular expression over a string: their cost is Kubernetes' (and
// cel-go's) ceil((1 + len(string)) * 0.1) * ceil(len(regex) * 0.25), the regex's length taken
// from its literal when it is one.
const regexFunctions = new Set(['matches', 'find', 'findAll']);
const stringTraversalCostFactor = 0.1;
const regexStringLengthCostFactor = 0.25;

function regexCost(call: { target?: unknown; args: unknown[] }, size: Sizes): number {
  const literal = stringLiteral(call.target ? call.args[0] : call.args[1]);
  const patternLength = literal !== null ? literal.length : size.string;
  return Math.ceil((1 + size.string) * stringTraversalCostFactor) * Math.ceil(patternLength * regexStringLengthCostFactor);
}

// expressionCost follows cel-go's cost model: an identifier or field selection costs 1, a
// constant 0, a function call 1 plus its operands, a comprehension its loop body once per
// element.
function expressionCost(node: unknown, size: Sizes): number {
  const expr = node as ExprNode | undefined;
  const kind = expr?.exprKind;
  if (!kind?.case) return 0;
  switch (kind.case) {
    case 'identExpr':
      return 1;
    case 'constExpr':
      return 0;
    case 'selectExpr':
      return 1 + expressionCost((kind.value as { operand: unknown }).operand, size);
    case 'callExpr': {
      const call = kind.value as { function: string; target?: unknown; args: unknown[] };
      const own = freeOperators.has(call.function) ? 0 : regexFunctions.has(call.function) ? regexCost(call, size) : (libraryCosts[call.function]?.(size) ?? 1);
      return own + expressionCost(call.target, size) + call.args.reduce<number>((sum, a) => sum + expressionCost(a, size), 0);
    }
    case 'listExpr':
      return listLiteralCost + (kind.value as { elements: unknown[] }).elements.reduce<number>((sum, e) => sum + expressionCost(e, size), 0);
    case 'structExpr':
      return 40 + (kind.value as { entries: { mapKey?: unknown; value?: unknown }[] }).entries.reduce<number>((sum, e) => sum + expressionCost(e.mapKey, size) + expressionCost(e.value, size), 0);
    case 'comprehensionExpr': {
      const c = kind.value as { iterRange: unknown; accuInit: unknown; loopCondition: unknown; loopStep: unknown; result: unknown };
      const body = expressionCost(c.loopCondition, size) + expressionCost(c.loopStep, size);
      return expressionCost(c.iterRange, size) + expressionCost(c.accuInit, size) + size.collection * body + expressionCost(c.result, size);
    }
    default:
      return 1;
  }
}

// celGoMessages word evaluation errors as cel-go (and Go's strconv) does, where the two differ.
const celGoMessages: [RegExp, string][] = [
  [/^field not found: /, 'no such key: '],
  [/^int overflow during .*$/, 'integer overflow'],
  [/^uint overflow during .*$/, 'unsigned integer overflow'],
  [/^u?int divide by zero$/, 'division by zero'],
  [/^u?int modulus by zero$/, 'modulus by zero'],
  [/^index (-?\d+) out of bounds \[0, -?\d+\)$/, 'index out of bounds: $1'],
  [/^Cannot convert (.*) to a BigInt$/s, 'strconv.ParseInt: parsing "$1": invalid syntax'],
];

function celGoMessage(message: string): string {
  for (const [pattern, replacement] of celGoMessages) {
    if (pattern.test(message)) return message.replace(pattern, replacement);
  }
  return message;
}
