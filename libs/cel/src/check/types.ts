// CelType is a type as cel-go's checker knows it: primitives, the well-known timestamp and
// duration, lists, maps, objects declared from a schema, opaque library types, type values,
// dyn, the error type, and the type parameters of overloads. optional_type(T) is cel-go's
// optional library's opaque type, the one opaque type with a parameter.
export type CelType =
  | { kind: 'primitive'; name: PrimitiveName }
  | { kind: 'dyn' }
  | { kind: 'error' }
  | { kind: 'list'; elem: CelType }
  | { kind: 'map'; key: CelType; value: CelType }
  | { kind: 'object'; name: string; fields: ReadonlyMap<string, CelType> }
  | { kind: 'opaque'; name: string }
  | { kind: 'optional'; elem: CelType }
  | { kind: 'type'; of: CelType }
  | { kind: 'param'; name: string };

export type PrimitiveName = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'google.protobuf.Timestamp' | 'google.protobuf.Duration';

const primitive = (name: PrimitiveName): CelType => ({ kind: 'primitive', name });
export const INT = primitive('int');
export const UINT = primitive('uint');
export const DOUBLE = primitive('double');
export const BOOL = primitive('bool');
export const STRING = primitive('string');
export const BYTES = primitive('bytes');
export const NULL = primitive('null_type');
export const TIMESTAMP = primitive('google.protobuf.Timestamp');
export const DURATION = primitive('google.protobuf.Duration');
export const DYN: CelType = { kind: 'dyn' };
export const ERROR: CelType = { kind: 'error' };
export const listOf = (elem: CelType): CelType => ({ kind: 'list', elem });
export const mapOf = (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value });
export const typeOf = (of: CelType): CelType => ({ kind: 'type', of });
export const optionalOf = (elem: CelType): CelType => ({ kind: 'optional', elem });
export const param = (name: string): CelType => ({ kind: 'param', name });

// formatType prints a type as cel-go's FormatCheckedType does (the null type as `null`).
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'primitive':
      return t.name === 'null_type' ? 'null' : t.name;
    case 'dyn':
      return 'dyn';
    case 'error':
      return '!error!';
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'object':
    case 'opaque':
      return t.name;
    case 'type':
      return `type(${formatType(t.of)})`;
    case 'optional':
      return `optional_type(${formatType(t.elem)})`;
    case 'param':
      return t.name;
  }
}

// Substitutions binds type parameters while an overload is matched.
export type Substitutions = Map<string, CelType>;

export function substitute(subs: Substitutions, t: CelType, typeParamToDyn: boolean): CelType {
  switch (t.kind) {
    case 'param': {
      const bound = subs.get(t.name);
      if (bound) return substitute(subs, bound, typeParamToDyn);
      return typeParamToDyn ? DYN : t;
    }
    case 'list':
      return listOf(substitute(subs, t.elem, typeParamToDyn));
    case 'map':
      return mapOf(substitute(subs, t.key, typeParamToDyn), substitute(subs, t.value, typeParamToDyn));
    case 'type':
      return typeOf(substitute(subs, t.of, typeParamToDyn));
    case 'optional':
      return optionalOf(substitute(subs, t.elem, typeParamToDyn));
    default:
      return t;
  }
}

function occurs(name: string, t: CelType, subs: Substitutions): boolean {
  switch (t.kind) {
    case 'param':
      if (t.name === name) return true;
      return subs.has(t.name) ? occurs(name, subs.get(t.name) as CelType, subs) : false;
    case 'list':
      return occurs(name, t.elem, subs);
    case 'map':
      return occurs(name, t.key, subs) || occurs(name, t.value, subs);
    case 'type':
      return occurs(name, t.of, subs);
    case 'optional':
      return occurs(name, t.elem, subs);
    default:
      return false;
  }
}

const isDynOrError = (t: CelType) => t.kind === 'dyn' || t.kind === 'error';

// nullAssignable is cel-go's internalIsAssignableNull: null fits objects, opaque and
// well-known types, never a primitive, list or map.
function nullAssignable(t: CelType): boolean {
  if (t.kind === 'object' || t.kind === 'opaque' || t.kind === 'optional') return true;
  return t.kind === 'primitive' && (t.name === 'null_type' || t.name === 'google.protobuf.Timestamp' || t.name === 'google.protobuf.Duration');
}

// isAssignable is cel-go's internalIsAssignable: may a value of type `from` be used where
// `to` is expected, binding type parameters in subs as it goes.
export function isAssignable(subs: Substitutions, to: CelType, from: CelType): boolean {
  if (to.kind === 'param') {
    const bound = subs.get(to.name);
    if (bound) return isAssignable(subs, bound, from);
    if (from.kind === 'param' && from.name === to.name) return true;
    if (occurs(to.name, from, subs)) return false;
    subs.set(to.name, from);
    return true;
  }
  if (from.kind === 'param') {
    const bound = subs.get(from.name);
    if (bound) return isAssignable(subs, to, bound);
    if (occurs(from.name, to, subs)) return false;
    subs.set(from.name, to);
    return true;
  }
  if (isDynOrError(to) || isDynOrError(from)) return true;
  if (to.kind === 'primitive' && to.name === 'null_type') return nullAssignable(from);
  if (from.kind === 'primitive' && from.name === 'null_type') return nullAssignable(to);
  if (to.kind !== from.kind) return false;
  switch (to.kind) {
    case 'primitive':
      return to.name === (from as typeof to).name;
    case 'list':
    case 'optional':
      return isAssignable(subs, to.elem, (from as typeof to).elem);
    case 'map':
      return isAssignable(subs, to.key, (from as typeof to).key) && isAssignable(subs, to.value, (from as typeof to).value);
    case 'object':
    case 'opaque':
      return to.name === (from as typeof to).name;
    case 'type':
      // A type is a type: its parameter does not change what it may be compared with.
      return true;
    default:
      return false;
  }
}

// isExactType compares two types for identity, ignoring nothing.
export function isExactType(a: CelType, b: CelType): boolean {
  return formatType(a) === formatType(b);
}

// mostGeneral picks dyn over a concrete type, as cel-go's mostGeneral does.
export function mostGeneral(a: CelType, b: CelType): CelType {
  return isDynOrError(b) ? b : a;
}
