// Mutators: pure functions that make a well-formed request part hostile, each drawing from the
// seeded Prng, each answering what it did (for the case's name) and the tag it belongs to (for
// PENDING_FIXES).
import { Prng } from './prng';
import { keyPath, Node, Obj, paths, Raw, replaceAt, nested } from './json-tree';

export interface Mutation<T> {
  value: T;
  tag: string;
  what: string;
}

// pollutionKey is the property a prototype-pollution attempt tries to set on Object.prototype;
// the suites check afterwards that no object has it.
export const pollutionKey = 'plinthPolluted';

// hostileValues replace a node: wrong types, zero values, out-of-range and oddly written
// numbers, invalid strings and times, empty and nested collections.
const hostileValues: [string, Node][] = [
  ['null', null],
  ['true', true],
  ['zero', 0],
  ['minus-one', -1],
  ['int32-overflow', 2147483648],
  ['int64-overflow', new Raw('9223372036854775808')],
  ['huge-exponent', new Raw('1e400', '1e400')],
  ['exponent-integer', new Raw('1e2')],
  ['float-integer', new Raw('15.0')],
  ['negative-zero', new Raw('-0')],
  ['fraction', 1.5],
  ['empty-string', ''],
  ['nul-string', 'a\u0000b'],
  ['cyrillic', 'ф'],
  ['long-string', 'x'.repeat(70000)],
  ['lone-surrogate', new Raw('"\\ud800"')],
  ['bad-time', '2020-13-45T99:99:99Z'],
  ['empty-array', []],
  ['empty-object', new Obj([])],
  ['array-of-null', [null]],
  ['array-of-empty-object', [new Obj([])]],
  ['nested-arrays', nested(200, 'array')],
  ['nested-objects', nested(200, 'object')],
];

// hostileKeys are added next to existing keys: unknown, non-Latin-1, empty, prototype keys,
// directive keys of strategic merge patch.
const hostileKeys: [string, string][] = [
  ['unknown', 'unknownField'],
  ['non-latin1', 'ф'],
  ['emoji', '🙂'],
  ['empty', ''],
  ['nul', 'a\u0000b'],
  ['control', 'a\u001bb'],
  ['proto', '__proto__'],
  ['constructor', 'constructor'],
  ['prototype', 'prototype'],
  ['to-string', 'toString'],
  ['has-own-property', 'hasOwnProperty'],
  ['patch-directive', '$patch'],
  ['retain-keys', '$retainKeys'],
];

// pollutionValue is what a prototype key is given: an object whose keys would land on
// Object.prototype (or a constructor's prototype) if someone merged it carelessly.
export function pollutionValue(): Obj {
  return new Obj([
    [pollutionKey, 'yes'],
    ['prototype', new Obj([[pollutionKey, 'yes']])],
  ]);
}

// mutateTree changes one node of a tree, chosen at random.
export function mutateTree(prng: Prng, tree: Node): Mutation<Node> {
  const all = paths(tree);
  const path = prng.pick(all);
  const where = keyPath(tree, path);
  const op = prng.int(10);
  if (op < 5) {
    const [name, value] = prng.pick(hostileValues);
    return { value: replaceAt(tree, path, () => value) ?? null, tag: `value:${name}`, what: `${where} = ${name}` };
  }
  if (op < 6 && path.length > 0) {
    return { value: replaceAt(tree, path, () => undefined) ?? null, tag: 'remove', what: `remove ${where}` };
  }
  if (op < 7) {
    return { value: replaceAt(tree, path, (n) => (prng.chance(0.5) ? [n] : new Obj([['a', n]]))) ?? null, tag: 'wrap', what: `wrap ${where}` };
  }
  const objects = all.filter((p) => nodeAt(tree, p) instanceof Obj);
  const objectPath = prng.pick(objects.length ? objects : [[]]);
  const [name, key] = prng.pick(hostileKeys);
  const value: Node = key === '__proto__' || key === 'constructor' || key === 'prototype' ? pollutionValue() : prng.pick(hostileValues)[1];
  const duplicate = op === 9;
  return {
    value:
      replaceAt(tree, objectPath, (n) => {
        if (!(n instanceof Obj)) return n;
        if (duplicate && n.entries.length > 0) {
          const [k] = prng.pick(n.entries);
          return new Obj([...n.entries, [k, value]]);
        }
        return new Obj([...n.entries, [key, value]]);
      }) ?? null,
    tag: duplicate ? 'duplicate-key' : `key:${name}`,
    what: duplicate ? `duplicate a key of ${keyPath(tree, objectPath)}` : `add key ${name} to ${keyPath(tree, objectPath)}`,
  };
}

function nodeAt(tree: Node, path: number[]): Node {
  let at = tree;
  for (const i of path) at = at instanceof Obj ? at.entries[i][1] : (at as Node[])[i];
  return at;
}

// mutateBytes damages an encoded body: flipped bits, truncation, inserted garbage, a repeated
// slice.
export function mutateBytes(prng: Prng, bytes: Buffer): Mutation<Buffer> {
  const at = prng.int(Math.max(1, bytes.length));
  switch (prng.int(5)) {
    case 0: {
      const out = Buffer.from(bytes);
      const flips = 1 + prng.int(4);
      for (let i = 0; i < flips; i++) out[prng.int(out.length)] ^= 1 << prng.int(8);
      return { value: out, tag: 'bytes:flip', what: `${flips} bit flips` };
    }
    case 1:
      return { value: bytes.subarray(0, at), tag: 'bytes:truncate', what: `truncated at ${at}` };
    case 2:
      return { value: Buffer.concat([bytes.subarray(0, at), prng.bytes(1 + prng.int(16)), bytes.subarray(at)]), tag: 'bytes:insert', what: `garbage inserted at ${at}` };
    case 3: {
      const end = Math.min(bytes.length, at + 1 + prng.int(32));
      return { value: Buffer.concat([bytes.subarray(0, end), bytes.subarray(at, end), bytes.subarray(end)]), tag: 'bytes:repeat', what: `bytes ${at}..${end} repeated` };
    }
    default:
      return { value: Buffer.concat([bytes, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])]), tag: 'bytes:overlong-varint', what: 'an overlong varint appended' };
  }
}
