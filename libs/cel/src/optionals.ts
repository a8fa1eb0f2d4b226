// cel-go's optional types (cel.OptionalTypes), which Kubernetes 1.28 has in its full
// environment only (rules already stored): the syntax `x.?f`, `m[?k]`, `[?e]` and `{?k: v}`,
// optional.of/none/ofNonZeroValue, hasValue, value, or, orValue and the optMap macro.
//
// The parser we use has no optional syntax, so markOptionalSyntax blanks each `?` of it (offsets
// stay those of the source) and remembers where it was; applyOptionalSyntax then makes the parsed
// expression what cel-go's parser makes of it, or, in the 1.27-compatible environment, reports
// the parser's "unsupported syntax" errors. At run time an optional is a list of no or one value.
import { celFunc, CelFunc, celList, celMethod, CelList, celMap, CelScalar, CelValue, isCelList, isCelMap, isCelUint, listType } from '@bufbuild/cel';
import type { CheckedExpression, CheckIssue, Expr } from './check/checker';
import { timeMessage } from './libraries';

// OptionalMarks are the places of optional syntax, by source offset: selections `.?` (at the
// dot), indexes `[?` (at the bracket), and elements of list and map literals (at the literal's
// bracket, by element index), with the offset of each `?` for errors.
export interface OptionalMarks {
  selects: Set<number>;
  indexes: Set<number>;
  elements: Map<number, Set<number>>;
  errors: CheckIssue[];
}

interface Frame {
  offset: number;
  literal: boolean;
  index: number;
}

const identifierChar = /[A-Za-z0-9_]/;

// markOptionalSyntax blanks the `?` of optional syntax outside strings and comments.
export function markOptionalSyntax(source: string): { text: string; marks: OptionalMarks | null } {
  if (!source.includes('?')) return { text: source, marks: null };
  const chars = [...source];
  const marks: OptionalMarks = { selects: new Set(), indexes: new Set(), elements: new Map(), errors: [] };
  const stack: Frame[] = [];
  let operandEnd = false;
  let lastWord = '';
  // questionAfter is the offset of a `?` that follows i (past blanks), or -1.
  const questionAfter = (i: number): number => {
    let j = i + 1;
    while (j < source.length && /\s/.test(source[j])) j++;
    return source[j] === '?' ? j : -1;
  };
  const blank = (at: number, syntax: string, mark: () => void): void => {
    chars[at] = ' ';
    mark();
    marks.errors.push({ offset: syntax === '?' ? at : -1, message: `unsupported syntax '${syntax}'` });
  };
  const markElement = (frame: Frame, at: number): void => {
    blank(at, '?', () => {
      let indices = marks.elements.get(frame.offset);
      if (!indices) marks.elements.set(frame.offset, (indices = new Set()));
      indices.add(frame.index);
    });
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'") {
      i = stringEnd(source, i);
      operandEnd = true;
      lastWord = '';
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (identifierChar.test(c)) {
      let j = i;
      while (j + 1 < source.length && identifierChar.test(source[j + 1])) j++;
      lastWord = source.slice(i, j + 1);
      // a string prefix (r'...', b"...")
      if ((source[j + 1] === '"' || source[j + 1] === "'") && /^[rRbB]{1,2}$/.test(lastWord)) {
        i = stringEnd(source, j + 1);
        lastWord = '';
      } else i = j;
      operandEnd = true;
      continue;
    }
    const word = lastWord;
    lastWord = '';
    if (c === '.') {
      const q = questionAfter(i);
      if (q >= 0 && operandEnd) {
        const dot = i;
        blank(q, '.?', () => marks.selects.add(dot));
        marks.errors[marks.errors.length - 1].offset = dot;
        i = q;
      }
      operandEnd = false;
      continue;
    }
    if (c === '[' || c === '{' || c === '(') {
      const literal = c === '{' || (c === '[' && !(operandEnd && word !== 'in'));
      const frame: Frame = { offset: i, literal, index: 0 };
      stack.push(frame);
      const q = questionAfter(i);
      if (q >= 0 && c === '[' && !frame.literal) {
        const bracket = i;
        blank(q, '[?', () => marks.indexes.add(bracket));
        marks.errors[marks.errors.length - 1].offset = bracket;
        i = q;
      } else if (q >= 0 && frame.literal) {
        markElement(frame, q);
        i = q;
      }
      operandEnd = false;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      stack.pop();
      operandEnd = true;
      continue;
    }
    if (c === ',') {
      const frame = stack[stack.length - 1];
      if (frame) frame.index++;
      const q = questionAfter(i);
      if (frame?.literal && q >= 0) {
        markElement(frame, q);
        i = q;
      }
      operandEnd = false;
      continue;
    }
    operandEnd = false;
  }
  const found = marks.selects.size + marks.indexes.size + marks.elements.size > 0;
  return found ? { text: chars.join(''), marks } : { text: source, marks: null };
}

// stringEnd is the offset of the quote that closes the string opened at i.
function stringEnd(source: string, i: number): number {
  const quote = source[i];
  const triple = source.startsWith(quote.repeat(3), i);
  const close = triple ? quote.repeat(3) : quote;
  for (let j = i + close.length; j < source.length; j++) {
    if (source[j] === '\\') {
      j++;
      continue;
    }
    if (source.startsWith(close, j)) return j + close.length - 1;
    if (!triple && source[j] === '\n') return j;
  }
  return source.length;
}

interface Call {
  function: string;
  target?: Expr;
  args: Expr[];
}

// OptionalRewriter makes the parsed expression cel-go's: new nodes get ids past the parser's.
class OptionalRewriter {
  private nextId: bigint;

  constructor(
    private readonly positions: Record<string, number>,
    private readonly marks: OptionalMarks | null,
    root: Expr,
  ) {
    this.nextId = maxId(root) + 1n;
  }

  private node(kind: Expr['exprKind'], at: Expr): Expr {
    const id = this.nextId++;
    this.positions[String(id)] = this.positions[String(at.id)] ?? 0;
    return { id, exprKind: kind } as Expr;
  }

  private at(expr: Expr): number | undefined {
    return this.positions[String(expr.id)];
  }

  rewrite(expr: Expr): void {
    const { case: kind, value } = expr.exprKind;
    for (const child of children(expr)) this.rewrite(child);
    const at = this.at(expr);
    if (kind === 'selectExpr' && at !== undefined && this.marks?.selects.has(at)) {
      const select = value as { operand: Expr; field: string };
      const field = this.node({ case: 'constExpr', value: { constantKind: { case: 'stringValue', value: select.field } } }, expr);
      expr.exprKind = { case: 'callExpr', value: { function: '_?._', args: [select.operand, field] } };
    } else if (kind === 'callExpr') {
      const call = value as Call;
      if (call.function === '_[_]' && at !== undefined && this.marks?.indexes.has(at)) call.function = '_[?_]';
      else if (call.target && isIdent(call.target, 'optional') && ['of', 'none', 'ofNonZeroValue'].includes(call.function)) {
        expr.exprKind = { case: 'callExpr', value: { function: `optional.${call.function}`, args: call.args } };
      } else if (call.function === 'optMap' && call.target && call.args.length === 2 && call.args[0].exprKind.case === 'identExpr') {
        this.expandOptMap(expr, call.target, (call.args[0].exprKind.value as { name: string }).name, call.args[1]);
      }
    } else if ((kind === 'listExpr' || kind === 'structExpr') && at !== undefined) {
      const indices = this.marks?.elements.get(at);
      if (!indices) return;
      if (kind === 'listExpr') (value as { optionalIndices: number[] }).optionalIndices = [...indices].sort((a, b) => a - b);
      else (value as { entries: { optionalEntry: boolean }[] }).entries.forEach((entry, i) => (entry.optionalEntry = indices.has(i)));
    }
  }

  // expandOptMap is cel-go's optMap macro: `t.hasValue() ? optional.of(<v bound to t.value()>)
  // : optional.none()`, the binding a comprehension over no elements.
  private expandOptMap(expr: Expr, target: Expr, name: string, mapped: Expr): void {
    const call = (fn: string, args: Expr[], receiver?: Expr) => this.node({ case: 'callExpr', value: { function: fn, target: receiver, args } }, expr);
    const bind = this.node(
      {
        case: 'comprehensionExpr',
        value: {
          iterVar: '#unused',
          iterRange: this.node({ case: 'listExpr', value: { elements: [], optionalIndices: [] } }, expr),
          accuVar: name,
          accuInit: call('value', [], structuredClone(target)),
          loopCondition: this.node({ case: 'constExpr', value: { constantKind: { case: 'boolValue', value: false } } }, expr),
          loopStep: this.node({ case: 'identExpr', value: { name } }, expr),
          result: mapped,
        },
      },
      expr,
    );
    expr.exprKind = { case: 'callExpr', value: { function: '_?_:_', args: [call('hasValue', [], target), call('optional.of', [bind]), call('optional.none', [])] } };
  }
}

function isIdent(expr: Expr, name: string): boolean {
  return expr.exprKind.case === 'identExpr' && (expr.exprKind.value as { name: string }).name === name;
}

// children are the direct subexpressions of an expression.
export function children(expr: Expr): Expr[] {
  const { case: kind, value } = expr.exprKind;
  switch (kind) {
    case 'selectExpr':
      return [(value as { operand: Expr }).operand];
    case 'callExpr': {
      const call = value as Call;
      return [...(call.target ? [call.target] : []), ...call.args];
    }
    case 'listExpr':
      return (value as { elements: Expr[] }).elements;
    case 'structExpr':
      return (value as { entries: { keyKind: { value: Expr }; value: Expr }[] }).entries.flatMap((e) => [e.keyKind.value, e.value]);
    case 'comprehensionExpr': {
      const c = value as Record<string, Expr>;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result];
    }
    default:
      return [];
  }
}

function maxId(expr: Expr): bigint {
  let max = expr.id;
  for (const child of children(expr)) {
    const m = maxId(child);
    if (m > max) max = m;
  }
  return max;
}

// applyOptionalSyntax makes a parsed expression what cel-go parses in an environment with
// optional types (the marks' syntax and optional.* calls, optMap expanded); without them
// (compatible), the marks are the parser's errors.
export function applyOptionalSyntax(expr: Expr, positions: Record<string, number>, marks: OptionalMarks | null, optionalTypes: boolean): CheckIssue[] {
  if (!optionalTypes) return marks?.errors ?? [];
  new OptionalRewriter(positions, marks, expr).rewrite(expr);
  return [];
}

// Run time: an optional is a list of no value (none) or one.
const dynList = listType(CelScalar.DYN);
const NONE = celList([]);
const some = (value: CelValue): CelList => celList([value]);

function valueOf(optional: CelList): CelValue {
  if (optional.size === 0) throw new Error('optional.none() dereference');
  return optional.get(0) as CelValue;
}

// isZero is Go's reflect zero value of a CEL value, as optional.ofNonZeroValue tests it.
function isZero(value: CelValue): boolean {
  if (value === null || value === false || value === '' || value === 0 || value === 0n) return true;
  if (isCelUint(value)) return value.value === 0n;
  if (value instanceof Uint8Array) return value.length === 0;
  if (isCelList(value)) return value.size === 0;
  if (isCelMap(value)) return value.size === 0;
  const timestamp = timeMessage(value, 'google.protobuf.Timestamp');
  if (timestamp) return timestamp.seconds === -62135596800n && timestamp.nanos === 0;
  const duration = timeMessage(value, 'google.protobuf.Duration');
  return duration !== null && duration.seconds === 0n && duration.nanos === 0;
}

// member is the field or key of a map (objects are maps), none when absent.
function member(container: CelValue, key: CelValue): CelList {
  if (isCelMap(container)) {
    const found = container.get(key as never);
    return found === undefined ? NONE : some(found);
  }
  if (isCelList(container) && typeof key === 'bigint') {
    const found = key >= 0n && key < BigInt(container.size) ? container.get(Number(key)) : undefined;
    return found === undefined ? NONE : some(found);
  }
  throw new Error(`no such overload`);
}

const inOptional = (optional: CelList, read: (value: CelValue) => CelList): CelList => (optional.size === 0 ? NONE : read(valueOf(optional)));

// optionalLibrary runs the optional functions under the names optionalOverloads gives them.
export const optionalLibrary: CelFunc[] = [
  celFunc('@optional_of', [CelScalar.DYN], dynList, (value) => some(value)),
  celFunc('@optional_of_non_zero', [CelScalar.DYN], dynList, (value) => (isZero(value) ? NONE : some(value))),
  celFunc('@optional_none', [], dynList, () => NONE),
  celMethod('@optional_has_value', dynList, [], CelScalar.BOOL, function () {
    return this.size > 0;
  }),
  celMethod('@optional_value', dynList, [], CelScalar.DYN, function () {
    return valueOf(this);
  }),
  celMethod('@optional_or', dynList, [dynList], dynList, function (other) {
    return this.size > 0 ? this : other;
  }),
  celMethod('@optional_or_value', dynList, [CelScalar.DYN], CelScalar.DYN, function (other) {
    return this.size > 0 ? valueOf(this) : other;
  }),
  celFunc('@optional_select', [CelScalar.DYN, CelScalar.STRING], dynList, (container, field) => member(container, field)),
  celFunc('@optional_select_optional', [dynList, CelScalar.STRING], dynList, (optional, field) => inOptional(optional, (v) => member(v, field))),
  celFunc('@optional_index', [CelScalar.DYN, CelScalar.DYN], dynList, (container, key) => member(container, key)),
  celFunc('@optional_index_optional', [dynList, CelScalar.DYN], dynList, (optional, key) => inOptional(optional, (v) => member(v, key))),
  celFunc('@optional_entry', [CelScalar.DYN, CelScalar.DYN, dynList], CelScalar.DYN, (map, key, optional) => withEntry(map, key, optional)),
];

// withEntry adds the key of an optional map entry when the optional has a value.
function withEntry(map: CelValue, key: CelValue, optional: CelList): CelValue {
  if (optional.size === 0 || !isCelMap(map)) return map;
  return celMapWith(map, key, valueOf(optional));
}

function celMapWith(map: ReadonlyMap<unknown, CelValue>, key: CelValue, value: CelValue): CelValue {
  const entries = new Map(map as Map<never, CelValue>);
  entries.set(key as never, value);
  return celMap(entries);
}

// runnableOptionals rewrites a checked expression for the run time: a selection on an optional
// selects in its value, and literals with optional elements or entries are built by calls
// (`[a, ?b]` is `[a] + b`, `{?k: v}` adds k when v has a value).
export function runnableOptionals(root: Expr, checked: CheckedExpression): void {
  let nextId = maxId(root) + 1n;
  const node = (exprKind: Expr['exprKind']): Expr => ({ id: nextId++, exprKind }) as Expr;
  const isOptional = (e: Expr) => checked.types.get(e.id)?.kind === 'optional';
  const visit = (expr: Expr): void => {
    for (const child of children(expr)) visit(child);
    const { case: kind, value } = expr.exprKind;
    if (kind === 'callExpr') {
      const call = value as Call;
      if (call.function === '@optional_select' && isOptional(call.args[0])) call.function = '@optional_select_optional';
    } else if (kind === 'selectExpr') {
      const select = value as { operand: Expr; field: string; testOnly?: boolean };
      if (select.testOnly || !isOptional(select.operand)) return;
      const field = node({ case: 'constExpr', value: { constantKind: { case: 'stringValue', value: select.field } } });
      expr.exprKind = { case: 'callExpr', value: { function: '@optional_select_optional', args: [select.operand, field] } };
    } else if (kind === 'listExpr') {
      const list = value as { elements: Expr[]; optionalIndices?: number[] };
      const optional = new Set(list.optionalIndices ?? []);
      if (optional.size === 0) return;
      const parts = list.elements.map((e, i) => (optional.has(i) ? e : node({ case: 'listExpr', value: { elements: [e], optionalIndices: [] } })));
      const joined = parts.reduce((acc, part) => node({ case: 'callExpr', value: { function: '_+_', args: [acc, part] } }));
      expr.exprKind = joined.exprKind;
    } else if (kind === 'structExpr') {
      const struct = value as { entries: { optionalEntry?: boolean; keyKind: { value: Expr }; value: Expr }[]; messageName?: string };
      if (!struct.entries.some((e) => e.optionalEntry)) return;
      let built = node({ case: 'structExpr', value: { ...struct, entries: struct.entries.filter((e) => !e.optionalEntry) } });
      for (const entry of struct.entries.filter((e) => e.optionalEntry)) {
        built = node({ case: 'callExpr', value: { function: '@optional_entry', args: [built, entry.keyKind.value, entry.value] } });
      }
      expr.exprKind = built.exprKind;
    }
  };
  visit(root);
}

// optionalOverloads name the run-time function of each overload the checker resolves.
export const optionalOverloads: Readonly<Record<string, string>> = {
  optional_of: '@optional_of',
  optional_ofNonZeroValue: '@optional_of_non_zero',
  optional_none: '@optional_none',
  optional_hasValue: '@optional_has_value',
  optional_value: '@optional_value',
  optional_or_optional: '@optional_or',
  optional_orValue_value: '@optional_or_value',
  select_optional_field: '@optional_select',
  list_optindex_optional_int: '@optional_index',
  map_optindex_optional_value: '@optional_index',
  optional_list_optindex_optional_int: '@optional_index_optional',
  optional_map_optindex_optional_value: '@optional_index_optional',
  optional_list_index_int: '@optional_index_optional',
  optional_map_index_value: '@optional_index_optional',
};
