// estimateCost is cel-go's checker.Cost with Kubernetes' library.CostEstimator and the CRD
// size estimator: each node's worst-case cost, where the size of what a comprehension walks or
// a string function reads comes from the schema (maxItems, maxProperties, maxLength, or what
// fits in a request) along the node's path from self.
import { CheckedExpression, Expr, MapEntry, qualifiedName } from './checker';
import { typeIdentifiers } from './declarations';
import { DeclType } from './decl-type';
import { CelType } from './types';
import { countedArguments, EvaluationCounts } from '../evaluation-counts';

export interface Estimate {
  min: number;
  max: number;
}

// maxUint64 stands for an unbounded size or cost; arithmetic saturates at it.
export const maxUint64 = 2 ** 64 - 1;
const stringTraversalCostFactor = 0.1;
const regexStringLengthCostFactor = 0.25;

const sat = (n: number) => (n >= maxUint64 ? maxUint64 : n);
const add = (a: Estimate, b: Estimate): Estimate => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) });
const multiply = (a: Estimate, b: Estimate): Estimate => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) });
const byFactor = (a: Estimate, f: number): Estimate => ({ min: sat(Math.ceil(a.min * f)), max: sat(Math.ceil(a.max * f)) });
const union = (a: Estimate, b: Estimate): Estimate => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const fixed = (n: number): Estimate => ({ min: n, max: n });
const zero = fixed(0);
const unbounded: Estimate = { min: 0, max: maxUint64 };

interface Node {
  expr: Expr;
  type: CelType | undefined;
  path: string[] | null;
  computed: Estimate | null;
}

interface CallExpr {
  function: string;
  target?: Expr;
  args: Expr[];
}

const accumulatorName = '@result';

class Coster {
  private readonly paths = new Map<bigint, string[]>();
  private readonly computedSizes = new Map<bigint, Estimate>();
  private readonly iterRanges = new Map<string, Expr[]>();

  constructor(
    private readonly checked: CheckedExpression,
    private readonly root: DeclType,
    private readonly unknownSize: Estimate,
    // runtime charges as cel-go's evaluation does where it differs from the estimator: a
    // presence test adds nothing to its operand, constant list and map literals are folded.
    private readonly runtime: boolean,
    // counts, at run time, say how often each counted part ran (evaluation-counts.ts): a part
    // is charged that many times, relative to how often the part around it ran (scope).
    private readonly counts: ((part: bigint) => number) | null = null,
  ) {}

  private scope = 1;
  // ownCosts, when collected, get each counted part's cost per run without its nested parts.
  ownCosts: Map<bigint, number> | null = null;
  private nestedCosts: number[] = [];

  // counted is the cost of a part that may run other than once: per run of the enclosing part
  // its cost times how often it ran, without counts once.
  private counted(expr: Expr, adjustment = 0): Estimate {
    if (!this.counts) return add(this.cost(expr), fixed(adjustment));
    const outer = this.scope;
    const runs = this.counts(expr.id);
    this.scope = runs;
    this.nestedCosts.push(0);
    const cost = add(this.cost(expr), fixed(adjustment));
    const nested = this.nestedCosts.pop() ?? 0;
    this.scope = outer;
    if (this.ownCosts) {
      this.ownCosts.set(expr.id, Math.max(0, cost.max - nested));
      if (this.nestedCosts.length > 0) this.nestedCosts[this.nestedCosts.length - 1] += cost.max;
    }
    const ratio = outer === 0 ? 0 : runs / outer;
    return { min: cost.min * ratio, max: cost.max * ratio };
  }

  cost(expr: Expr | undefined): Estimate {
    if (!expr?.exprKind?.case) return zero;
    const value = expr.exprKind.value;
    switch (expr.exprKind.case) {
      case 'constExpr':
        return zero;
      case 'identExpr':
        return this.ident(expr, (value as { name: string }).name);
      case 'selectExpr':
        return this.select(expr, value as { operand: Expr; field: string; testOnly?: boolean });
      case 'callExpr':
        return this.call(expr, value as CallExpr);
      case 'listExpr':
        if (this.runtime && isConstant(expr)) return zero;
        return (value as { elements: Expr[] }).elements.reduce((sum, e) => add(sum, this.cost(e)), fixed(10));
      case 'structExpr':
        if (this.runtime && isConstant(expr)) return zero;
        return (value as { entries: MapEntry[] }).entries.reduce((sum, e) => add(add(sum, this.cost(e.keyKind.value)), this.cost(e.value)), fixed(30));
      case 'comprehensionExpr':
        return this.comprehension(value as { iterVar: string; iterRange: Expr; accuInit: Expr; loopCondition: Expr; loopStep: Expr; result: Expr });
      default:
        return zero;
    }
  }

  private ident(expr: Expr, name: string): Estimate {
    // cel-go plans a type's name as a constant
    if (this.runtime && this.isTypeName(expr)) return zero;
    const ranges = this.iterRanges.get(name);
    const range = ranges?.[ranges.length - 1];
    if (range) {
      const rangeType = this.checked.types.get(range.id);
      const rangePath = this.paths.get(range.id) ?? [];
      if (rangeType?.kind === 'list') this.paths.set(expr.id, [...rangePath, '@items']);
      else if (rangeType?.kind === 'map') this.paths.set(expr.id, [...rangePath, '@keys']);
    } else {
      this.paths.set(expr.id, [name]);
    }
    return fixed(1);
  }

  private isTypeName(expr: Expr): boolean {
    return this.checked.types.get(expr.id)?.kind === 'type' && !this.iterRanges.get((expr.exprKind.value as { name: string }).name)?.length;
  }

  private select(expr: Expr, select: { operand: Expr; field: string; testOnly?: boolean }): Estimate {
    if (select.testOnly) return add(this.runtime ? zero : fixed(1), this.cost(select.operand));
    // A qualified type name (google.protobuf.Duration) is one identifier to cel-go's checker.
    const qualified = qualifiedName(expr);
    if (qualified !== null && typeIdentifiers.has(qualified) && this.checked.types.get(expr.id)?.kind === 'type') {
      this.paths.set(expr.id, [qualified]);
      return this.runtime ? zero : fixed(1);
    }
    let sum = this.cost(select.operand);
    const kind = this.checked.types.get(select.operand.id)?.kind;
    if (kind === 'map' || kind === 'object' || kind === 'param') sum = add(sum, fixed(1));
    this.paths.set(expr.id, [...(this.paths.get(select.operand.id) ?? []), select.field]);
    return sum;
  }

  private call(expr: Expr, call: CallExpr): Estimate {
    if (this.runtime && foldedAtRuntime(call)) {
      this.computedSizes.set(expr.id, this.sizeEstimate(this.node(call.args[0])));
      return call.function === '@in' ? this.cost(call.args[0]) : zero;
    }
    const overloads = this.checked.overloads.get(expr.id);
    // cel-go evaluates or and orValue in place (no call), the alternative only when needed:
    // never after optional.of(...)
    if (this.runtime && call.target && overloads?.length === 1 && lazyOptionalOverloads.has(overloads[0])) {
      const present = call.target.exprKind.case === 'callExpr' && (call.target.exprKind.value as CallExpr).function === 'optional.of';
      return present ? this.cost(call.target) : call.args.reduce((sum, a) => add(sum, this.cost(a)), this.cost(call.target));
    }
    const counted = this.counts ? countedArguments(call) : [];
    // cel-go resolves an attribute in a conditional's branch or as an index without
    // evaluating it as such: its qualifiers are charged, not the attribute itself.
    const resolved = this.runtime ? resolvedArguments(call) : [];
    const argCosts = call.args.map((a, i) => {
      const adjustment = resolved.includes(i) && isAttribute(a) ? -1 : 0;
      return counted.includes(i) ? this.counted(a, adjustment) : add(this.cost(a), fixed(adjustment));
    });
    const args = call.args.map((a) => this.node(a));
    if (!overloads || overloads.length === 0) return zero;
    let sum = zero;
    let target: Node | null = null;
    if (call.target) {
      sum = add(sum, this.cost(call.target));
      target = this.node(call.target);
    }
    let fnCost: Estimate = { min: maxUint64, max: 0 };
    let resultSize: Estimate | null = null;
    for (const overload of overloads) {
      const estimate = this.functionCost(call.function, overload, target, args, argCosts);
      fnCost = union(fnCost, estimate.cost);
      if (estimate.resultSize) resultSize = resultSize ? union(resultSize, estimate.resultSize) : estimate.resultSize;
      if (overload === 'index_list' && call.args.length > 0) this.paths.set(expr.id, [...(this.paths.get(call.args[0].id) ?? []), '@items']);
      if (overload === 'index_map' && call.args.length > 0) this.paths.set(expr.id, [...(this.paths.get(call.args[0].id) ?? []), '@values']);
    }
    if (resultSize) this.computedSizes.set(expr.id, resultSize);
    return add(sum, fnCost);
  }

  private comprehension(c: { iterVar: string; iterRange: Expr; accuInit: Expr; loopCondition: Expr; loopStep: Expr; result: Expr }): Estimate {
    let sum = add(this.cost(c.iterRange), this.cost(c.accuInit));
    const stack = this.iterRanges.get(c.iterVar) ?? [];
    stack.push(c.iterRange);
    this.iterRanges.set(c.iterVar, stack);
    if (this.counts) {
      sum = add(add(sum, this.counted(c.loopCondition)), this.counted(c.loopStep));
      stack.pop();
      return add(sum, this.counted(c.result));
    }
    const loopCost = this.cost(c.loopCondition);
    const stepCost = this.cost(c.loopStep);
    stack.pop();
    sum = add(sum, this.cost(c.result));
    const rangeCount = this.sizeEstimate(this.node(c.iterRange));
    return add(sum, multiply(rangeCount, add(stepCost, loopCost)));
  }

  private node(expr: Expr): Node {
    let path = this.paths.get(expr.id) ?? null;
    if (path && path[0] === accumulatorName) path = null;
    return { expr, type: this.checked.types.get(expr.id), path, computed: this.computedSizes.get(expr.id) ?? computedSize(expr) };
  }

  // sizeEstimate is cel-go's: a literal's own size, else the schema's bound along the path
  // from self, else 1 for a scalar and unbounded for the rest.
  sizeEstimate(node: Node): Estimate {
    if (node.computed) return node.computed;
    // at run time, a type has no size: cel-go charges it as 1
    if (this.runtime && node.type?.kind === 'type') return fixed(1);
    const fromSchema = this.schemaSize(node);
    if (fromSchema) return fromSchema;
    return isScalar(node.type) ? fixed(1) : this.unknownSize;
  }

  private schemaSize(node: Node): Estimate | null {
    if (!node.path || node.path.length === 0) return null;
    let current: DeclType | undefined = this.root;
    for (const step of node.path.slice(1)) {
      if (!current) return null;
      if (step === '@items' || step === '@values') current = current.elem;
      else if (step === '@keys') current = current.key;
      else current = current.fields?.get(step);
    }
    return current ? { min: 0, max: current.maxElements } : null;
  }

  private functionCost(fn: string, overload: string, target: Node | null, args: Node[], argCosts: Estimate[]): { cost: Estimate; resultSize?: Estimate } {
    const argSum = () => argCosts.reduce(add, zero);
    const library = this.libraryCost(fn, target, args);
    if (library) return { cost: add(library.cost, argSum()), resultSize: library.resultSize };
    switch (overload) {
      case 'string_to_bytes': {
        const sz = this.sizeEstimate(args[0]);
        return { cost: add(byFactor(sz, stringTraversalCostFactor), argSum()), resultSize: { min: sz.min, max: sat(sz.max * 4) } };
      }
      case 'bytes_to_string': {
        const sz = this.sizeEstimate(args[0]);
        return { cost: add(byFactor(sz, stringTraversalCostFactor), argSum()), resultSize: { min: Math.floor(sz.min / 4), max: sz.max } };
      }
      case 'starts_with_string':
      case 'ends_with_string':
        // cel-go's run time charges the traversal of the string, its estimator that of the prefix
        if (this.runtime && target) return { cost: add(byFactor(this.sizeEstimate(target), stringTraversalCostFactor), argSum()) };
        return { cost: add(byFactor(this.sizeEstimate(args[0]), stringTraversalCostFactor), argSum()) };
      case 'in_list':
        return { cost: add(this.sizeEstimate(args[1]), argSum()) };
      case 'matches_string':
        if (target && args.length === 1) {
          const strCost = byFactor(add(this.sizeEstimate(target), fixed(1)), stringTraversalCostFactor);
          const regexCost = byFactor(this.sizeEstimate(args[0]), regexStringLengthCostFactor);
          return { cost: add(multiply(strCost, regexCost), argSum()) };
        }
        break;
      case 'contains_string':
        if (target && args.length === 1) {
          const strCost = byFactor(this.sizeEstimate(target), stringTraversalCostFactor);
          const subCost = byFactor(this.sizeEstimate(args[0]), stringTraversalCostFactor);
          return { cost: add(multiply(strCost, subCost), argSum()) };
        }
        break;
      case 'logical_or':
      case 'logical_and':
        return { cost: { min: argCosts[0].min, max: add(argCosts[0], argCosts[1]).max } };
      case 'conditional': {
        const size = union(this.sizeEstimate(args[1]), this.sizeEstimate(args[2]));
        // counted, each branch is charged as often as it ran
        const branches = this.counts ? add(argCosts[1], argCosts[2]) : union(argCosts[1], argCosts[2]);
        return { cost: add(argCosts[0], branches), resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list': {
        const size = add(this.sizeEstimate(args[0]), this.sizeEstimate(args[1]));
        if (overload === 'add_list') return { cost: add(fixed(1), argSum()), resultSize: size };
        return { cost: add(byFactor(size, stringTraversalCostFactor), argSum()), resultSize: size };
      }
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        const smallestMax = Math.min(this.sizeEstimate(args[0]).max, this.sizeEstimate(args[1]).max);
        return { cost: add(byFactor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, stringTraversalCostFactor), argSum()) };
      }
    }
    return { cost: add(fixed(1), argSum()) };
  }

  // libraryCost is Kubernetes' library.CostEstimator.EstimateCallCost.
  private libraryCost(fn: string, target: Node | null, args: Node[]): { cost: Estimate; resultSize?: Estimate } | null {
    switch (fn) {
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf': {
        if (!target) return null;
        const elem = target.type?.kind === 'list' ? target.type.elem : null;
        if (elem) {
          let elCost = fixed(1);
          if (elem.kind === 'primitive' && (elem.name === 'string' || elem.name === 'bytes')) {
            elCost = add(elCost, byFactor(this.sizeEstimate(this.elementNode(target, elem)), stringTraversalCostFactor));
          }
          return { cost: multiply(this.sizeEstimate(target), elCost) };
        }
        // at run time, traversalCost: a string's length times the factor, rounded down
        if (this.runtime) return { cost: { min: 0, max: Math.floor(this.sizeEstimate(target).max * stringTraversalCostFactor) } };
        return { cost: byFactor(this.sizeEstimate(target), stringTraversalCostFactor) };
      }
      case 'url':
        return args.length === 1 ? { cost: byFactor(this.sizeEstimate(args[0]), stringTraversalCostFactor) } : null;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim': {
        if (!target) return null;
        const sz = this.sizeEstimate(target);
        return { cost: byFactor(sz, stringTraversalCostFactor), resultSize: this.runtime && fn === 'substring' ? substringSize(sz, args) : sz };
      }
      case 'replace':
        return target && args.length >= 2 ? this.replaceCost(target, args) : null;
      case 'split': {
        if (!target) return null;
        const sz = this.sizeEstimate(target);
        let max = sz.max;
        const limit = args[1]?.expr.exprKind.case === 'constExpr' ? (args[1].expr.exprKind.value as { constantKind: { case?: string; value?: unknown } }).constantKind : null;
        if (limit) max = limit.case === 'int64Value' ? Number(limit.value as bigint) : 0;
        return { cost: byFactor(sz, 2 * stringTraversalCostFactor), resultSize: { min: 0, max } };
      }
      case 'join': {
        if (!target) return null;
        const listSize = this.sizeEstimate(target);
        const elem = target.type?.kind === 'list' ? target.type.elem : null;
        let size = elem ? multiply(listSize, this.sizeEstimate(this.elementNode(target, elem))) : zero;
        if (args.length > 0) {
          const separators = { min: listSize.min > 0 ? listSize.min - 1 : 0, max: listSize.max > 0 ? listSize.max - 1 : 0 };
          size = add(size, multiply(this.sizeEstimate(args[0]), separators));
        }
        return { cost: byFactor(size, stringTraversalCostFactor), resultSize: size };
      }
      case 'find':
      case 'findAll': {
        if (!target || args.length < 1) return null;
        const sz = this.sizeEstimate(target);
        const strCost = byFactor(add(sz, fixed(1)), stringTraversalCostFactor);
        const regexCost = byFactor(this.sizeEstimate(args[0]), regexStringLengthCostFactor);
        return { cost: multiply(strCost, regexCost), resultSize: { min: 0, max: sz.max } };
      }
      default:
        return null;
    }
  }

  private replaceCost(target: Node, args: Node[]): { cost: Estimate; resultSize: Estimate } {
    const sz = this.sizeEstimate(target);
    const toReplace = this.sizeEstimate(args[0]);
    const replaceWith = this.sizeEstimate(args[1]);
    const count = { min: 0, max: 0 };
    const retained = { min: 0, max: 0 };
    if (toReplace.min === 0) {
      count.max = sz.max < maxUint64 ? sz.max + 1 : sz.max;
      retained.max = sz.max;
    } else if (replaceWith.max <= toReplace.min) {
      retained.max = sz.max;
    } else {
      count.max = Math.ceil(sz.max / toReplace.min);
    }
    if (toReplace.max === 0) {
      count.min = sz.min < maxUint64 ? sz.min + 1 : sz.min;
      retained.min = sz.min;
    } else if (toReplace.max <= replaceWith.min) {
      retained.min = sz.min;
    } else {
      count.min = Math.ceil(sz.min / toReplace.max);
    }
    return { cost: byFactor(sz, 2 * stringTraversalCostFactor), resultSize: add(multiply(count, replaceWith), retained) };
  }

  // elementNode is a list's element: its size comes from the path of the list's items.
  private elementNode(list: Node, elem: CelType): Node {
    return { expr: list.expr, type: elem, path: list.path ? [...list.path, '@items'] : null, computed: null };
  }
}

function isScalar(t: CelType | undefined): boolean {
  if (!t || t.kind !== 'primitive') return false;
  return t.name !== 'string' && t.name !== 'bytes';
}

// computedSize is a literal's exact size: a string's code points, a list's or map's entries.
function computedSize(expr: Expr): Estimate | null {
  const { case: kind, value } = expr.exprKind;
  if (kind === 'constExpr') {
    const constant = (value as { constantKind: { case?: string; value?: unknown } }).constantKind;
    if (constant.case === 'stringValue') return fixed([...(constant.value as string)].length);
    if (constant.case === 'bytesValue') return fixed((constant.value as Uint8Array).length);
    return constant.case ? fixed(1) : null;
  }
  if (kind === 'listExpr') return fixed((value as { elements: unknown[] }).elements.length);
  if (kind === 'structExpr') return fixed((value as { entries: unknown[] }).entries.length);
  return null;
}

// substringSize is the size of a substring with constant bounds, as it comes out at run time.
function substringSize(size: Estimate, args: Node[]): Estimate {
  const bounds = args.map((a) => (a.expr.exprKind.case === 'constExpr' ? (a.expr.exprKind.value as { constantKind: { value?: unknown } }).constantKind.value : undefined));
  if (!bounds.every((b) => typeof b === 'bigint')) return size;
  const [start, end = BigInt(size.max)] = bounds as bigint[];
  const length = Math.max(0, Math.min(size.max, Number(end)) - Number(start));
  return { min: Math.min(size.min, length), max: length };
}

// resolvedArguments are the arguments cel-go resolves as attributes without evaluating them.
function resolvedArguments(call: CallExpr): number[] {
  if (call.target) return [];
  if (call.function === '_?_:_') return [1, 2];
  if (call.function === '_[_]') return [1];
  return [];
}

// isAttribute is a variable, or a field or an element of one: what cel-go evaluates as one
// attribute, charging 1 for it and 1 for each qualifier.
function isAttribute(expr: Expr): boolean {
  const { case: kind, value } = expr.exprKind;
  if (kind === 'identExpr') return true;
  if (kind === 'selectExpr') return !(value as { testOnly?: boolean }).testOnly && isAttribute((value as { operand: Expr }).operand);
  if (kind === 'callExpr') {
    const call = value as CallExpr;
    return !call.target && call.function === '_[_]' && isAttribute(call.args[0]);
  }
  return false;
}

// lazyOptionalOverloads are the optional library's functions cel-go plans as operators.
const lazyOptionalOverloads = new Set(['optional_or_optional', 'optional_orValue_value']);

// typeConversions are the functions cel-go's optimizer runs ahead on a constant argument.
const typeConversions = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);

// foldedAtRuntime is a call cel-go's optimizer (OptOptimize) turns into a constant or a set
// lookup: a type conversion of a constant, membership in a constant list.
function foldedAtRuntime(call: CallExpr): boolean {
  if (call.target || call.args.length === 0) return false;
  if (typeConversions.has(call.function)) return call.args.length === 1 && isConstant(call.args[0]);
  return call.function === '@in' && call.args.length === 2 && call.args[1].exprKind.case === 'listExpr' && isConstant(call.args[1]);
}

// isConstant is a literal made of literals only, which cel-go's optimizer folds.
function isConstant(expr: Expr | undefined): boolean {
  if (!expr) return true;
  const { case: kind, value } = expr.exprKind;
  if (kind === 'constExpr') return true;
  if (kind === 'listExpr') return (value as { elements: Expr[] }).elements.every(isConstant);
  if (kind === 'structExpr') return (value as { entries: MapEntry[] }).entries.every((e) => isConstant(e.keyKind.value) && isConstant(e.value));
  return false;
}

// estimateCost returns the cost range of a checked expression over self of the given type.
export function estimateCost(expr: Expr, checked: CheckedExpression, self: DeclType): Estimate {
  return new Coster(checked, self, unbounded, false).cost(expr);
}

// countedPartCosts are the least cost of one run of each counted part (evaluation-counts.ts)
// without the parts nested in it: what a run has cost at least when its parts have run so often,
// whatever the sizes (self holds none: actualDeclType of nothing).
export function countedPartCosts(expr: Expr, checked: CheckedExpression, empty: DeclType): ReadonlyMap<bigint, number> {
  const coster = new Coster(checked, empty, zero, true, () => 1);
  coster.ownCosts = new Map();
  coster.cost(expr);
  return coster.ownCosts;
}

// runtimeCost is the cost of a run of an expression over a value whose sizes self holds
// (actualDeclType), largest standing for the size of what has no path to the value; counts say
// how often the parts that may run other than once ran.
export function runtimeCost(expr: Expr, checked: CheckedExpression, self: DeclType, largest: number, counts: EvaluationCounts): number {
  return Math.round(new Coster(checked, self, { min: 0, max: largest }, true, (part) => counts.runs.get(part) ?? 0).cost(expr).max);
}
