// check is the part of cel-go's type checker Kubernetes relies on: every identifier, field
// selection and call of a parsed expression gets a type, calls resolve to overloads (recorded
// by id for the cost estimator), and what does not type-check is reported in cel-go's words,
// at cel-go's positions.
import { declarations, Environment, typeIdentifiers } from './declarations';
import { BOOL, BYTES, CelType, DOUBLE, DURATION, DYN, ERROR, formatType, INT, isAssignable, listOf, mapOf, mostGeneral, NULL, optionalOf, param, STRING, Substitutions, substitute, TIMESTAMP, UINT } from './types';

export interface Expr {
  id: bigint;
  exprKind: { case?: string; value?: unknown };
}

export interface CheckIssue {
  offset: number;
  message: string;
}

export interface CheckedExpression {
  types: ReadonlyMap<bigint, CelType>;
  overloads: ReadonlyMap<bigint, string[]>;
  references: ReadonlySet<string>;
  outputType: CelType;
  issues: CheckIssue[];
}

interface Call {
  function: string;
  target?: Expr;
  args: Expr[];
}

// MapEntry is an entry of a map literal (a struct expression without a message name).
export interface MapEntry {
  keyKind: { case?: string; value: Expr };
  value: Expr;
  optionalEntry?: boolean;
}

interface Comprehension {
  iterVar: string;
  accuVar: string;
  iterRange: Expr;
  accuInit: Expr;
  loopCondition: Expr;
  loopStep: Expr;
  result: Expr;
}

class Checker {
  readonly types = new Map<bigint, CelType>();
  readonly overloads = new Map<bigint, string[]>();
  readonly references = new Set<string>();
  readonly issues: CheckIssue[] = [];
  private subs: Substitutions = new Map();
  private freeTypeVars = 0;
  private readonly scopes: Map<string, CelType>[] = [];
  private readonly decls;

  constructor(
    env: Environment,
    private readonly variables: ReadonlyMap<string, CelType>,
    private readonly positions: Record<string, number>,
    private readonly source: string,
  ) {
    this.decls = declarations(env);
  }

  private report(expr: Expr, message: string): void {
    this.issues.push({ offset: this.offset(expr), message });
  }

  // offset is where cel-go places an expression: a call (and a macro such as has()) at the
  // parenthesis that opens its arguments, where the parser we use places it at its name.
  private offset(expr: Expr): number {
    const at = this.positions[String(expr.id)] ?? 0;
    const isCall = expr.exprKind.case === 'callExpr' && /^[A-Za-z]/.test((expr.exprKind.value as Call).function);
    const isMacro = expr.exprKind.case === 'selectExpr' && (expr.exprKind.value as { testOnly?: boolean }).testOnly;
    if (!isCall && !isMacro) {
      // An operator is placed at its symbol; our parser may place it at the blank before.
      let symbol = at;
      if (expr.exprKind.case === 'callExpr') while (/\s/.test(this.source[symbol] ?? '')) symbol++;
      return symbol;
    }
    const paren = this.source.indexOf('(', at);
    return paren >= 0 ? paren : at;
  }

  private set(expr: Expr, type: CelType): CelType {
    this.types.set(expr.id, type);
    return type;
  }

  private lookup(name: string): CelType | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    return undefined;
  }

  check(expr: Expr): CelType {
    const { case: kind, value } = expr.exprKind;
    switch (kind) {
      case 'constExpr':
        return this.set(expr, constantType(value as { constantKind: { case?: string } }));
      case 'identExpr':
        return this.set(expr, this.ident(expr, (value as { name: string }).name));
      case 'selectExpr':
        return this.set(expr, this.select(expr, value as { operand: Expr; field: string; testOnly?: boolean }));
      case 'callExpr':
        return this.set(expr, this.call(expr, value as Call));
      case 'listExpr': {
        const list = value as { elements: Expr[]; optionalIndices?: number[] };
        const optional = new Set(list.optionalIndices ?? []);
        return this.set(expr, listOf(this.join(list.elements, (e) => e, (_, i) => optional.has(i)) ?? this.newTypeVar()));
      }
      case 'structExpr': {
        const entries = (value as { entries: MapEntry[] }).entries;
        const key = this.join(entries, (e) => e.keyKind.value);
        const val = this.join(entries, (e) => e.value, (e) => !!e.optionalEntry);
        return this.set(expr, mapOf(key ?? this.newTypeVar(), val ?? this.newTypeVar()));
      }
      case 'comprehensionExpr':
        return this.set(expr, this.comprehension(value as Comprehension));
      default:
        return this.set(expr, ERROR);
    }
  }

  private newTypeVar(): CelType {
    return param(`_var${this.freeTypeVars++}`);
  }

  private ident(expr: Expr, name: string): CelType {
    const local = this.lookup(name);
    if (local) return local;
    const variable = this.variables.get(name);
    if (variable) {
      this.references.add(name);
      return variable;
    }
    const type = typeIdentifiers.get(name);
    if (type) return type;
    this.report(expr, `undeclared reference to '${name}' (in container '')`);
    return ERROR;
  }

  private select(expr: Expr, select: { operand: Expr; field: string; testOnly?: boolean }): CelType {
    const qualified = qualifiedName(expr);
    if (qualified !== null && typeIdentifiers.has(qualified) && !this.isDeclared(qualified)) {
      return typeIdentifiers.get(qualified) as CelType;
    }
    const result = this.selectField(expr, this.check(select.operand), select.field);
    return select.testOnly ? BOOL : result;
  }

  // isDeclared tells whether the first name of a qualified name is a variable or a local.
  private isDeclared(qualified: string): boolean {
    const root = qualified.split('.')[0];
    return !!this.lookup(root) || this.variables.has(root);
  }

  // selectField is the type of a field of a value of type operandType; on an optional, the
  // field of its value, optional.
  private selectField(expr: Expr, operandType: CelType, field: string): CelType {
    let operand = substitute(this.subs, operandType, false);
    const optional = operand.kind === 'optional';
    if (operand.kind === 'optional') operand = substitute(this.subs, operand.elem, false);
    let result: CelType;
    switch (operand.kind) {
      case 'object': {
        const fieldType = operand.fields.get(field);
        if (!fieldType) {
          this.report(expr, `undefined field '${field}'`);
          result = ERROR;
        } else result = fieldType;
        break;
      }
      case 'map':
        result = operand.value;
        break;
      case 'dyn':
      case 'error':
      case 'param':
        result = DYN;
        break;
      default:
        this.report(expr, `type '${formatType(operand)}' does not support field selection`);
        result = ERROR;
    }
    return optional && result.kind !== 'error' ? optionalOf(result) : result;
  }

  // optionalSelect is `operand.?field`: the field's type, optional.
  private optionalSelect(expr: Expr, call: Call): CelType {
    const [operand, field] = call.args;
    const operandType = this.check(operand);
    const name = field?.exprKind.case === 'constExpr' ? (field.exprKind.value as { constantKind: { value?: unknown } }).constantKind.value : undefined;
    if (typeof name !== 'string') {
      this.report(expr, 'unsupported optional field selection');
      return ERROR;
    }
    this.check(field);
    const result = this.selectField(expr, operandType, name);
    if (result.kind === 'error') return ERROR;
    this.overloads.set(expr.id, ['select_optional_field']);
    return result.kind === 'optional' ? result : optionalOf(result);
  }

  private call(expr: Expr, call: Call): CelType {
    if (call.function === '_?._' && !call.target) return this.optionalSelect(expr, call);
    // A qualified name that names a function is a call of that function: `optional.of(x)`.
    const qualified = call.target ? qualifiedName(call.target) : null;
    if (qualified !== null && this.decls.has(`${qualified}.${call.function}`) && !this.isDeclared(qualified)) {
      call = { function: `${qualified}.${call.function}`, args: call.args };
    }
    if (call.target) this.check(call.target);
    for (const arg of call.args) this.check(arg);
    const overloads = this.decls.get(call.function);
    if (!overloads) {
      this.report(expr, `undeclared reference to '${call.function}' (in container '')`);
      return ERROR;
    }
    const argTypes = [...(call.target ? [call.target] : []), ...call.args].map((e) => this.types.get(e.id) ?? ERROR);
    let result: CelType | null = null;
    const matched: string[] = [];
    for (const overload of overloads) {
      if (overload.member !== !!call.target || overload.params.length !== argTypes.length) continue;
      const fresh: Substitutions = new Map();
      for (const name of typeParamNames(overload.params, overload.result)) fresh.set(name, this.newTypeVar());
      const params = overload.params.map((p) => substitute(fresh, p, false));
      const attempt = new Map(this.subs);
      if (!argTypes.every((arg, i) => isAssignable(attempt, arg, params[i]))) continue;
      this.subs = attempt;
      matched.push(overload.id);
      const overloadResult = substitute(this.subs, substitute(fresh, overload.result, false), false);
      if (result === null) result = overloadResult;
      else if (result.kind !== 'dyn' && formatType(overloadResult) !== formatType(result)) result = DYN;
    }
    if (result === null) {
      const printed = argTypes.map((t) => formatType(substitute(this.subs, t, true)));
      const signature = call.target ? `${printed[0]}.(${printed.slice(1).join(', ')})` : `(${printed.join(', ')})`;
      this.report(expr, `found no matching overload for '${call.function}' applied to '${signature}'`);
      return ERROR;
    }
    this.overloads.set(expr.id, matched);
    return result;
  }

  // join is cel-go's joinTypes over the elements of an aggregate literal (homogeneous
  // aggregate literals: every element must fit the first).
  // An optional element or entry (`[?x]`, `{?k: v}`) joins with the type of its value.
  private join<T>(items: T[], exprOf: (item: T) => Expr, isOptional: (item: T, index: number) => boolean = () => false): CelType | null {
    let joined: CelType | null = null;
    for (const [index, item] of items.entries()) {
      const e = exprOf(item);
      let t = this.check(e);
      if (isOptional(item, index)) {
        const checked = substitute(this.subs, t, false);
        if (checked.kind === 'optional') t = checked.elem;
        else if (checked.kind !== 'dyn' && checked.kind !== 'error') {
          this.report(e, `expected type 'optional_type(${formatType(checked)})' but found '${formatType(checked)}'`);
          t = ERROR;
        }
      }
      if (joined === null) joined = t;
      else if (isAssignable(this.subs, joined, t)) joined = mostGeneral(joined, t);
      else {
        this.report(e, `expected type '${formatType(substitute(this.subs, joined, false))}' but found '${formatType(substitute(this.subs, t, false))}'`);
        joined = ERROR;
      }
    }
    return joined;
  }

  private comprehension(c: Comprehension): CelType {
    const rangeType = substitute(this.subs, this.check(c.iterRange), false);
    const accuType = this.check(c.accuInit);
    let varType: CelType;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.elem;
        break;
      case 'map':
        varType = rangeType.key;
        break;
      case 'dyn':
      case 'error':
      case 'param':
        isAssignable(this.subs, DYN, rangeType);
        varType = DYN;
        break;
      default:
        this.report(c.iterRange, `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        varType = ERROR;
    }
    this.scopes.push(new Map([[c.accuVar, accuType]]));
    this.scopes.push(new Map([[c.iterVar, varType]]));
    this.assertType(c.loopCondition, this.check(c.loopCondition), BOOL);
    this.assertType(c.loopStep, this.check(c.loopStep), accuType);
    this.scopes.pop();
    const result = this.check(c.result);
    this.scopes.pop();
    return substitute(this.subs, result, false);
  }

  private assertType(expr: Expr, actual: CelType, expected: CelType): void {
    if (!isAssignable(this.subs, expected, actual)) {
      this.report(expr, `expected type '${formatType(substitute(this.subs, expected, false))}' but found '${formatType(substitute(this.subs, actual, false))}'`);
    }
  }

  finalTypes(): Map<bigint, CelType> {
    return new Map([...this.types].map(([id, t]) => [id, substitute(this.subs, t, true)]));
  }
}

function typeParamNames(params: CelType[], result: CelType): Set<string> {
  const names = new Set<string>();
  const visit = (t: CelType): void => {
    if (t.kind === 'param') names.add(t.name);
    else if (t.kind === 'list' || t.kind === 'optional') visit(t.elem);
    else if (t.kind === 'map') {
      visit(t.key);
      visit(t.value);
    }
    else if (t.kind === 'type') visit(t.of);
  };
  params.forEach(visit);
  visit(result);
  return names;
}

function constantType(constant: { constantKind: { case?: string } }): CelType {
  switch (constant.constantKind.case) {
    case 'boolValue':
      return BOOL;
    case 'bytesValue':
      return BYTES;
    case 'doubleValue':
      return DOUBLE;
    case 'int64Value':
      return INT;
    case 'uint64Value':
      return UINT;
    case 'stringValue':
      return STRING;
    case 'nullValue':
      return NULL;
    case 'durationValue':
      return DURATION;
    case 'timestampValue':
      return TIMESTAMP;
    default:
      return ERROR;
  }
}

// qualifiedName reads `a.b.c` written as selections on an identifier, or null.
export function qualifiedName(expr: Expr): string | null {
  const { case: kind, value } = expr.exprKind;
  if (kind === 'identExpr') return (value as { name: string }).name;
  if (kind !== 'selectExpr') return null;
  const select = value as { operand: Expr; field: string; testOnly?: boolean };
  if (select.testOnly) return null;
  const operand = qualifiedName(select.operand);
  return operand === null ? null : `${operand}.${select.field}`;
}

// check type-checks a parsed expression with the given variables in an environment.
export function check(source: string, expr: Expr, positions: Record<string, number>, variables: ReadonlyMap<string, CelType>, env: Environment): CheckedExpression {
  const checker = new Checker(env, variables, positions, source);
  checker.check(expr);
  const types = checker.finalTypes();
  return {
    types,
    overloads: checker.overloads,
    references: checker.references,
    outputType: types.get(expr.id) ?? ERROR,
    issues: checker.issues,
  };
}
