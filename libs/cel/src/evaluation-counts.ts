// Evaluation counts let the cost of a run be charged as cel-go's cost tracker charges it: only
// what ran. The parts of an expression that may run other than once (a comprehension's loop
// condition, step and result, the right operand of && and ||, a conditional's branches) are
// wrapped in a counting call in the program that runs; the cost model multiplies each part's
// cost by how often it ran (runtimeCost in check/cost.ts).
import { celFunc, CelScalar } from '@bufbuild/cel';
import { Expr } from './check/checker';

// EvaluationCounts collect how often each counted part of one run ran, by the part's id. With
// the least cost of one run of each part (countedPartCosts) they know a least cost of the run
// so far: a run whose least cost exceeds limit costs more than that, and is cancelled there, as
// cel-go cancels a run once its cost exceeds the limit, rather than run to its end.
export class EvaluationCounts {
  readonly runs = new Map<bigint, number>();
  private leastCost = 0;
  cancelled = false;

  constructor(
    private readonly limit = Infinity,
    private readonly partCosts: ReadonlyMap<bigint, number> = new Map(),
  ) {}

  // count records one run of a part; once cancelled, every counted part fails, so that each
  // comprehension stops at its next loop condition.
  count(id: bigint): void {
    if (this.cancelled) throw new Error(cancelledMessage);
    this.runs.set(id, (this.runs.get(id) ?? 0) + 1);
    this.leastCost += this.partCosts.get(id) ?? 0;
    if (this.leastCost > this.limit) {
      this.cancelled = true;
      throw new Error(cancelledMessage);
    }
  }
}

export const cancelledMessage = 'operation cancelled: actual cost limit exceeded';

// A counted part E runs as @counted(@count(id), E): @count records the run before E runs (so
// that a run of E that fails counts too), @counted passes E's value on.
const countedFunction = '@counted';
const countFunction = '@count';

// active collects the counts of the run under way; evaluation is synchronous.
let active: EvaluationCounts | null = null;

export const countingLibrary = [
  celFunc(countFunction, [CelScalar.INT], CelScalar.BOOL, (id) => {
    active?.count(id);
    return true;
  }),
  celFunc(countedFunction, [CelScalar.BOOL, CelScalar.DYN], CelScalar.DYN, (_counted, value) => value),
];

// withCounts runs f with counts collecting the counted parts that run.
export function withCounts<T>(counts: EvaluationCounts | undefined, f: () => T): T {
  if (!counts) return f();
  const outer = active;
  active = counts;
  try {
    return f();
  } finally {
    active = outer;
  }
}

interface CallExpr {
  function: string;
  target?: Expr;
  args: Expr[];
}

interface ComprehensionExpr {
  loopCondition: Expr;
  loopStep: Expr;
  result: Expr;
}

// countedArguments are the arguments of a call that may run other than once.
export function countedArguments(call: CallExpr): number[] {
  if (call.target) return [];
  if (call.function === '_&&_' || call.function === '_||_') return [1];
  if (call.function === '_?_:_') return [1, 2];
  return [];
}

const comprehensionParts = ['loopCondition', 'loopStep', 'result'] as const;

// countEvaluations wraps the parts of a (runnable) expression that may run other than once in
// counting calls keyed by their own ids; new nodes take ids above every id in the expression.
export function countEvaluations(root: Expr): void {
  let nextId = maxId(root) + 1n;
  const node = (exprKind: Expr['exprKind']): Expr => ({ id: nextId++, exprKind });
  const wrap = (expr: Expr): Expr => {
    const key = node({ case: 'constExpr', value: { constantKind: { case: 'int64Value', value: expr.id } } });
    const counting = node({ case: 'callExpr', value: { function: countFunction, args: [key] } });
    return node({ case: 'callExpr', value: { function: countedFunction, args: [counting, expr] } });
  };
  const visit = (expr: Expr | undefined): void => {
    if (!expr?.exprKind) return;
    const { case: kind, value } = expr.exprKind;
    for (const child of children(expr)) visit(child);
    if (kind === 'callExpr') {
      const call = value as CallExpr;
      for (const i of countedArguments(call)) call.args[i] = wrap(call.args[i]);
    } else if (kind === 'comprehensionExpr') {
      const comprehension = value as ComprehensionExpr;
      for (const part of comprehensionParts) comprehension[part] = wrap(comprehension[part]);
    }
  };
  visit(root);
}

function children(expr: Expr): Expr[] {
  const { case: kind, value } = expr.exprKind;
  switch (kind) {
    case 'selectExpr':
      return [(value as { operand: Expr }).operand];
    case 'callExpr': {
      const call = value as CallExpr;
      return call.target ? [call.target, ...call.args] : call.args;
    }
    case 'listExpr':
      return (value as { elements: Expr[] }).elements;
    case 'structExpr':
      return (value as { entries: { keyKind: { case?: string; value?: unknown }; value: Expr }[] }).entries.flatMap((e) => (e.keyKind.case === 'mapKey' ? [e.keyKind.value as Expr, e.value] : [e.value]));
    case 'comprehensionExpr': {
      const c = value as ComprehensionExpr & { iterRange: Expr; accuInit: Expr };
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result];
    }
    default:
      return [];
  }
}

function maxId(expr: Expr): bigint {
  return children(expr).reduce((max, child) => {
    const m = maxId(child);
    return m > max ? m : max;
  }, BigInt(expr.id));
}
