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
import { actualDeclType, DeclType } from './check/decl-type';
import { Environment } from './check/declarations';
import { countedPartCosts, Estimate, estimateCost, runtimeCost } from './check/cost';
import { BOOL, CelType, DYN, formatType, STRING } from './check/types';
import { formatError } from './typecheck';
import { countEvaluations, countingLibrary, EvaluationCounts, withCounts } from './evaluation-counts';
import { applyOptionalSyntax, markOptionalSyntax, optionalLibrary, optionalOverloads, runnableOptionals } from './optionals';

const env = celEnv({ funcs: [...kubernetesLibraries, ...listOperators, ...optionalLibrary, ...countingLibrary] });
const runtimeOverloads: Readonly<Record<string, string>> = { ...typedOverloads, ...optionalOverloads };

export interface Program {
  readonly expression: string;
  readonly references: ReadonlySet<string>;
  // estimate is the worst-case cost cel-go's estimator gives from self's declared type.
  estimate(): Estimate;
  // runtimeCost is the cost of a run over a value whose sizes self holds (actualDeclType), with
  // the counts evaluate collected; largest stands for the size of what has no path to the value.
  runtimeCost(self: DeclType, largest: number, counts: EvaluationCounts): number;
  // counts are new evaluation counts for one run, cancelling it once it costs more than limit.
  counts(limit: number): EvaluationCounts;
  // evaluate runs the program; counts, when given, collect how often its parts ran.
  evaluate(bindings: Record<string, CelInput>, counts?: EvaluationCounts): CelValue;
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

// regexFunctions run a regular expression given as their (last) argument.
const regexFunctions = new Set(['matches', 'find', 'findAll']);

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

// operatorAtEnd matches an expression cut short after a binary operator.
const operatorAtEnd = /(?:&&|\|\||==|!=|<=|>=|[<>+\-*/%]|\bin)\s*$/;

// endsAfterOperator is the error cel-go's ANTLR parser gives an expression that ends where an
// operand should follow: the end of input, and the tokens that may start one.
function endsAfterOperator(expression: string): { offset: number; message: string } | undefined {
  if (!operatorAtEnd.test(expression)) return undefined;
  const operandStarts = "'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER";
  return { offset: expression.length, message: `Syntax error: mismatched input '<EOF>' expecting {${operandStarts}}` };
}

// compileExpression compiles an expression over the declared variables.
export function compileExpression(expression: string, variables: readonly string[], options: CompileOptions = {}): Program {
  let parsed;
  const environment = options.environment ?? 'full';
  const syntax = markOptionalSyntax(expression);
  try {
    parsed = parse(syntax.text);
  } catch (err) {
    const cause = ((err as { cause?: unknown }).cause ?? err) as { rawMessage?: string; location?: { start?: { offset?: number } } };
    const offset = cause.location?.start?.offset;
    if (cause.rawMessage === undefined || offset === undefined) throw new CompileError(`ERROR: ${(err as Error).message}`);
    throw new CompileError(formatError(expression, endsAfterOperator(expression) ?? { offset, message: `Syntax error: ${cause.rawMessage}` }));
  }
  const selfType: CelType = options.self?.type ?? DYN;
  const declared = new Map<string, CelType>(variables.map((v) => [v, selfType]));
  const positions = (parsed.sourceInfo?.positions ?? {}) as Record<string, number>;
  const syntaxErrors = applyOptionalSyntax(parsed.expr as unknown as Expr, positions, syntax.marks, environment === 'full');
  if (syntaxErrors.length > 0) throw new CompileError(syntaxErrors.map((issue) => formatError(expression, issue)).join('\n'));
  const checked = check(expression, parsed.expr as unknown as Expr, positions, declared, environment);
  // cel-go lists its errors in the order of their places in the expression
  const issues = [...checked.issues].sort((a, b) => a.offset - b.offset);
  if (issues.length > 0) throw new CompileError(issues.map((issue) => formatError(expression, issue)).join('\n'));
  if (options.output === 'bool' && formatType(checked.outputType) !== formatType(BOOL)) throw new OutputTypeError('cel expression must evaluate to a bool');
  if (options.output === 'string' && formatType(checked.outputType) !== formatType(STRING)) throw new OutputTypeError('messageExpression must evaluate to a string');
  checkRegexLiterals(parsed.expr);
  // The program runs a copy whose calls name the typed overloads; the cost estimate reads the
  // expression as written.
  const runnable = structuredClone(parsed);
  callTypedOverloads(runnable.expr as unknown as Expr, checked);
  runnableOptionals(runnable.expr as unknown as Expr, checked);
  countEvaluations(runnable.expr as unknown as Expr);
  const run = plan(env, runnable);
  const self = options.self;
  let partCosts: ReadonlyMap<bigint, number> | undefined;
  return {
    expression,
    references: checked.references,
    estimate: () => (self ? estimateCost(parsed.expr as unknown as Expr, checked, self) : { min: 0, max: 0 }),
    counts(limit) {
      partCosts ??= self ? countedPartCosts(parsed.expr as unknown as Expr, checked, actualDeclType(self, null)) : new Map();
      return new EvaluationCounts(limit, partCosts);
    },
    runtimeCost: (decl, largest, counts) => runtimeCost(parsed.expr as unknown as Expr, checked, decl, largest, counts),
    evaluate(bindings, counts) {
      const result = withCounts(counts, () => run(bindings as never));
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
    const renamed = overloads?.length === 1 ? runtimeOverloads[overloads[0]] : undefined;
    if (renamed) (expr.exprKind.value as { function: string }).function = renamed;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$typeName') callTypedOverloads(value, checked);
  }
}

// celGoMessages word evaluation errors as cel-go (and Go's strconv) does, where the two differ.
const celGoMessages: [RegExp, string][] = [
  [/^field not found: /, 'no such key: '],
  // a value the schema does not describe (invalid data, ...), met as the rule reads it
  [/^Unsupported input Error: (.*)$/s, '$1'],
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
