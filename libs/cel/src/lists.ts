// Lists with `x-kubernetes-list-type: set` or `map` (apiserver/pkg/cel/common/values.go): a set
// list equals any list with the same elements in any order, and `X + Y` keeps X's elements and
// appends the elements of Y not in X; a map list equals any list with the same elements by key,
// and `X + Y` overwrites X's elements in place by the elements of Y with the same keys, appending
// the others. As in cel-go, the left operand decides: `[2, 1] == self.set` compares in order.
import { celEnv, celFunc, CelInput, celList, celListConcat, CelList, CelScalar, CelValue, isCelList, isCelMap, listType, parse, plan } from '@bufbuild/cel';

export type ListSemantics = { kind: 'set' } | { kind: 'map'; keys: readonly string[] };

const celListSymbol = Symbol.for('@bufbuild/cel/list');

// KeyedList is a CEL list that remembers its list type.
class KeyedList {
  readonly [celListSymbol] = {};
  private readonly inner: CelList;

  constructor(
    elements: readonly CelInput[],
    readonly semantics: ListSemantics,
  ) {
    this.inner = celList(elements);
  }

  get size(): number {
    return this.inner.size;
  }

  get(index: number): CelValue | undefined {
    return this.inner.get(index);
  }

  values(): IterableIterator<CelValue> {
    return this.inner.values();
  }

  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.inner.values();
  }
}

// keyedList makes a CEL list with set or map semantics.
export function keyedList(elements: readonly CelInput[], semantics: ListSemantics): CelList {
  return new KeyedList(elements, semantics) as unknown as CelList;
}

function isKeyedList(v: unknown): v is KeyedList {
  return v instanceof KeyedList;
}

// scalarKey identifies a scalar as a Go map key would: by type and value.
function scalarKey(v: CelValue | undefined): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'object') return `object:${String(v)}`;
  return `${typeof v}:${String(v)}`;
}

// elementKey is the key of a set element, or of a map list element by its key properties.
function elementKey(semantics: ListSemantics, element: CelValue): string {
  if (semantics.kind === 'set') return scalarKey(element);
  if (!isCelMap(element)) return scalarKey(element);
  return JSON.stringify(semantics.keys.map((k) => scalarKey(element.get(k))));
}

function keyedEquals(list: KeyedList, other: CelValue): boolean {
  if (!isCelList(other) || other.size !== list.size) return false;
  const byKey = new Map<string, CelValue>();
  for (const element of list) byKey.set(elementKey(list.semantics, element), element);
  for (const element of other) {
    const key = elementKey(list.semantics, element);
    if (!byKey.has(key)) return false;
    if (list.semantics.kind === 'map' && !kubernetesEquals(byKey.get(key) as CelValue, element)) return false;
  }
  return true;
}

const standardEquals = plan(celEnv(), parse('a == b'));

// kubernetesEquals is CEL equality where lists with set or map semantics ignore order, at any
// depth of the left operand.
// inaccessibleFields holds, for an object value, the fields a rule cannot reach (kept by
// x-kubernetes-preserve-unknown-fields) as stable JSON: Kubernetes compares objects by their
// whole unstructured content, so two objects that differ only there are not equal.
export const inaccessibleFields = new WeakMap<object, { json(): string }>();

export function kubernetesEquals(a: CelValue, b: CelValue): boolean {
  if (isKeyedList(a)) return keyedEquals(a, b);
  if (isCelList(a)) {
    if (!isCelList(b) || a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!kubernetesEquals(a.get(i) as CelValue, b.get(i) as CelValue)) return false;
    return true;
  }
  if (isCelMap(a)) {
    if (!isCelMap(b) || a.size !== b.size) return false;
    if ((inaccessibleFields.get(a)?.json() ?? '') !== (inaccessibleFields.get(b)?.json() ?? '')) return false;
    for (const [key, value] of a) {
      const other = b.get(key);
      if (other === undefined || !kubernetesEquals(value, other)) return false;
    }
    return true;
  }
  return standardEquals({ a, b } as never) === true;
}

// concatenate is `X + Y` over lists: a union for a set, a merge for a map list.
function concatenate(left: CelList, right: CelList): CelList {
  if (!isKeyedList(left)) return celListConcat(left, right);
  const { semantics } = left;
  const elements: CelValue[] = [...left];
  const positions = new Map<string, number>();
  elements.forEach((element, i) => positions.set(elementKey(semantics, element), i));
  for (const element of right) {
    const key = elementKey(semantics, element);
    const position = positions.get(key);
    if (position === undefined) {
      positions.set(key, elements.length);
      elements.push(element);
    } else if (semantics.kind === 'map') {
      elements[position] = element;
    }
  }
  return keyedList(elements as CelInput[], semantics);
}

const dynList = listType(CelScalar.DYN);

// listOperators override the standard `==`, `!=` and list `+`.
export const listOperators = [
  celFunc('_==_', [CelScalar.DYN, CelScalar.DYN], CelScalar.BOOL, kubernetesEquals),
  celFunc('_!=_', [CelScalar.DYN, CelScalar.DYN], CelScalar.BOOL, (a, b) => !kubernetesEquals(a, b)),
  celFunc('_+_', [dynList, dynList], dynList, concatenate),
];
