// FieldSet is fieldpath.Set of structured-merge-diff: a tree of path elements where a node may
// be a member (the field itself is owned) and may have children (fields below it are owned).
// Managed fields are stored as FieldSets encoded in the FieldsV1 format.
import { Schema } from '@plinth/api';
import { isObject, setOwn } from './json';
import {
  comparePathElements,
  deserializePathElement,
  fieldElement,
  Path,
  PathElement,
  serializePathElement,
  UnknownPathElementTypeError,
} from './path-element';
import { childSchema, isDeclaredField, Kind, kindOf, listItemElement, schemaAt } from './schema-kind';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  // members and children are keyed by the serialized path element, which is canonical.
  private readonly members = new Map<string, PathElement>();
  private readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  // insert adds a path; the empty path is not a member of anything and is ignored.
  insert(path: Path): void {
    if (path.length === 0) return;
    let children = this.children;
    let members = this.members;
    for (let i = 0; i < path.length - 1; i++) {
      const pe = path[i];
      const key = serializePathElement(pe);
      let child = children.get(key);
      if (!child) {
        child = { pe, set: new FieldSet() };
        children.set(key, child);
      }
      children = child.set.children;
      members = child.set.members;
    }
    const last = path[path.length - 1];
    members.set(serializePathElement(last), last);
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let members = this.members;
    let children = this.children;
    for (let i = 0; i < path.length - 1; i++) {
      const child = children.get(serializePathElement(path[i]));
      if (!child) return false;
      members = child.set.members;
      children = child.set.children;
    }
    return members.has(serializePathElement(path[path.length - 1]));
  }

  // hasMemberAlong tells whether path or one of its prefixes is a member: whether
  // recursiveDifference with this set removes path.
  hasMemberAlong(path: Path): boolean {
    let members = this.members;
    let children = this.children;
    for (const pe of path) {
      const key = serializePathElement(pe);
      if (members.has(key)) return true;
      const child = children.get(key);
      if (!child) return false;
      members = child.set.members;
      children = child.set.children;
    }
    return false;
  }

  isEmpty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  // withPrefix is the set of paths below pe (empty when there are none).
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(serializePathElement(pe))?.set ?? new FieldSet();
  }

  // union, intersection and the differences make a new set, sharing the subtrees of their
  // operands, or return an operand as it is when the other changes nothing: a set is never
  // changed once made.
  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    for (const [k, pe] of [...this.members, ...other.members]) out.members.set(k, pe);
    for (const [k, c] of this.children) out.children.set(k, c);
    for (const [k, c] of other.children) {
      const mine = out.children.get(k);
      out.children.set(k, mine ? { pe: c.pe, set: mine.set.union(c.set) } : c);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const theirs = other.children.get(k);
      if (!theirs) continue;
      const both = c.set.intersection(theirs.set);
      if (!both.isEmpty()) out.children.set(k, { pe: c.pe, set: both });
    }
    return out;
  }

  // difference removes the members of other; a member of other does not remove paths below it
  // (use recursiveDifference for that).
  difference(other: FieldSet): FieldSet {
    return this.subtract(other, false);
  }

  // recursiveDifference removes every path of other and everything below its members.
  recursiveDifference(other: FieldSet): FieldSet {
    return this.subtract(other, true);
  }

  private subtract(other: FieldSet, recursive: boolean): FieldSet {
    if (this.isEmpty() || other.isEmpty()) return this;
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (recursive && other.members.has(k)) continue;
      const theirs = other.children.get(k);
      if (!theirs) {
        out.children.set(k, c);
        continue;
      }
      const rest = c.set.subtract(theirs.set, recursive);
      if (!rest.isEmpty()) out.children.set(k, { pe: c.pe, set: rest });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.members.size !== other.members.size || this.children.size !== other.children.size) return false;
    for (const k of this.members.keys()) if (!other.members.has(k)) return false;
    for (const [k, c] of this.children) {
      const theirs = other.children.get(k);
      if (!theirs || !c.set.equals(theirs.set)) return false;
    }
    return true;
  }

  // paths lists the members in Set.Iterate order: a node's members, then its children, sorted.
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of this.sortedMembers()) out.push([...prefix, pe]);
    for (const c of this.sortedChildren()) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  private sortedMembers(): PathElement[] {
    return [...this.members.values()].sort(comparePathElements);
  }

  private sortedChildren(): Child[] {
    return [...this.children.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
  }

  // ensureNamedFieldsAreMembers makes every declared struct field with owned children a member
  // too, so that removing it removes the whole field (Set.EnsureNamedFieldsAreMembers).
  ensureNamedFieldsAreMembers(schema: Schema | undefined): FieldSet {
    const out = new FieldSet();
    const kind = kindOf(schema, undefined);
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (c.pe.kind === 'field' && isDeclaredField(kind, c.pe.name)) out.members.set(k, c.pe);
      out.children.set(k, { pe: c.pe, set: c.set.ensureNamedFieldsAreMembers(schemaAt(schema, c.pe)) });
    }
    return out;
  }

  // reconcileWithSchema is ReconcileFieldSetWithSchema: it follows a schema change since the
  // set was recorded. Fields below what is now an atomic list, map or struct become ownership
  // of that whole field (granular to atomic); a field that became granular keeps only what the
  // set says, so no ownership of its parts is inferred (atomic to granular). Maps without a
  // declared structure (deduced types) are left as they are. It returns this set when nothing
  // changed.
  reconcileWithSchema(schema: Schema | undefined): FieldSet {
    if (schema === undefined) return this;
    let changed = false;
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const childSchema = schemaAt(schema, c.pe);
      if (childSchema !== undefined && isAtomicSchema(childSchema)) {
        out.members.set(k, c.pe);
        changed = true;
        continue;
      }
      const reconciled = c.set.reconcileWithSchema(childSchema);
      if (reconciled !== c.set) changed = true;
      out.children.set(k, reconciled === c.set ? c : { pe: c.pe, set: reconciled });
    }
    return changed ? out : this;
  }

  // toFieldsV1 encodes the set as Kubernetes does (Set.ToJSON): keys sorted by path element,
  // `{}` for a leaf, and a leading `".": {}` when a node with children is itself a member.
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && !this.isEmpty()) out['.'] = {};
    // The keys are the serialized elements, in the elements' order.
    const keys = [...this.members.keys()];
    for (const k of this.children.keys()) if (!this.members.has(k)) keys.push(k);
    if (keys.length > 1) keys.sort((a, b) => comparePathElements(this.elementOf(a), this.elementOf(b)));
    for (const k of keys) {
      const child = this.children.get(k);
      setOwn(out, k, child ? child.set.emit(this.members.has(k)) : {});
    }
    return out;
  }

  private elementOf(key: string): PathElement {
    return this.members.get(key) ?? (this.children.get(key) as Child).pe;
  }

  // fromFieldsV1 decodes a FieldsV1 object (FieldsToSet); unknown path element types are skipped.
  static fromFieldsV1(fields: unknown): FieldSet {
    if (!isObject(fields)) throw new Error('FieldsV1 must be a JSON object');
    return readV1(fields).children ?? new FieldSet();
  }

  toString(): string {
    return JSON.stringify(this.toFieldsV1());
  }
}

function readV1(obj: Record<string, unknown>): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const key of Object.keys(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = deserializePathElement(key);
    } catch (err) {
      if (err instanceof UnknownPathElementTypeError) continue;
      throw new Error(`parsing key as path element: ${(err as Error).message}`);
    }
    const value = obj[key];
    if (!isObject(value)) throw new Error(`FieldsV1 entry ${key} must be a JSON object`);
    const sub = readV1(value);
    children ??= new FieldSet();
    if (sub.isMember) children.insert([pe]);
    if (sub.children) for (const path of sub.children.paths()) children.insert([pe, ...path]);
  }
  if (children === undefined) isMember = true;
  return { children, isMember };
}

// isAtomicSchema tells whether a schema is an atomic list, map or struct (not a scalar).
function isAtomicSchema(schema: Schema): boolean {
  const kind = kindOf(schema, undefined);
  if (kind.type === 'list') return kind.atomic;
  if (kind.type === 'map') return kind.atomic && (schema.properties !== undefined || schema.additionalProperties !== undefined || schema.mapType === 'atomic');
  return false;
}

// fromObject is TypedValue.ToFieldSet: the fields an object sets. Scalars, atomic lists and
// atomic maps are leaves; list items (`k:` and `v:`) and keys of maps that are not declared
// struct fields (labels, annotations) are members as well as parents of their own fields.
export function fromObject(object: unknown, schema: Schema | undefined): FieldSet {
  const set = new FieldSet();
  walkToSet(object, schema, [], set);
  return set;
}

function walkToSet(value: unknown, schema: Schema | undefined, path: PathElement[], set: FieldSet): void {
  const kind: Kind = kindOf(schema, value);
  if (kind.type === 'scalar') {
    set.insert(path);
    return;
  }
  if (kind.type === 'list') {
    if (kind.atomic || !Array.isArray(value)) {
      if (kind.atomic || (value !== null && value !== undefined)) set.insert(path);
      return;
    }
    value.forEach((item, i) => {
      const pe = listItemElement(kind, i, item);
      if (pe instanceof Error) return;
      const itemPath = [...path, pe];
      walkToSet(item, kind.items, itemPath, set);
      set.insert(itemPath);
    });
    return;
  }
  if (kind.atomic) {
    set.insert(path);
    return;
  }
  if (!isObject(value)) {
    if (value !== null && value !== undefined) set.insert(path);
    return;
  }
  for (const name of Object.keys(value)) {
    const childPath = [...path, fieldElement(name)];
    walkToSet(value[name], childSchema(kind, name), childPath, set);
    if (!isDeclaredField(kind, name)) set.insert(childPath);
  }
}
