// A JSON tree the generators can make hostile: objects keep their entries in order, duplicates
// and `__proto__` included (a plain object literal would turn `__proto__` into a prototype),
// and Raw nodes carry number or YAML text exactly as written (`1e400`, `15.0`, `.inf`).
export class Raw {
  constructor(
    readonly json: string,
    readonly yaml: string = json,
  ) {}
}

export class Obj {
  constructor(readonly entries: [string, Node][]) {}
}

export type Node = Raw | Obj | Node[] | string | number | boolean | null;

// fromPlain turns a plain value (a manifest) into a tree.
export function fromPlain(value: unknown): Node {
  if (Array.isArray(value)) return value.map(fromPlain);
  if (value !== null && typeof value === 'object') return new Obj(Object.entries(value).map(([k, v]) => [k, fromPlain(v)]));
  return value as Node;
}

export function toJson(node: Node): string {
  if (node instanceof Raw) return node.json;
  if (node instanceof Obj) return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  if (Array.isArray(node)) return `[${node.map(toJson).join(',')}]`;
  return JSON.stringify(node);
}

// toYaml writes block-style YAML (flow style for empty collections), strings double-quoted.
export function toYaml(node: Node, indent = ''): string {
  if (node instanceof Raw) return node.yaml;
  if (node instanceof Obj) {
    if (node.entries.length === 0) return '{}';
    return node.entries.map(([k, v]) => `${indent}${JSON.stringify(k)}:${yamlChild(v, indent)}`).join('\n');
  }
  if (Array.isArray(node)) {
    if (node.length === 0) return '[]';
    return node.map((v) => `${indent}-${yamlChild(v, indent)}`).join('\n');
  }
  return JSON.stringify(node);
}

function yamlChild(node: Node, indent: string): string {
  const nested = (node instanceof Obj && node.entries.length > 0) || (Array.isArray(node) && node.length > 0);
  return nested ? `\n${toYaml(node, indent + '  ')}` : ` ${toYaml(node, indent)}`;
}

// A Path addresses a node: object keys by entry index, array items by index.
export type Path = number[];

// paths lists every node's path, the root's ([]) first.
export function paths(node: Node, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (node instanceof Obj) node.entries.forEach(([, v], i) => out.push(...paths(v, [...at, i])));
  else if (Array.isArray(node)) node.forEach((v, i) => out.push(...paths(v, [...at, i])));
  return out;
}

// replaceAt answers a copy of the tree with the node at path changed by `change` (which may
// answer undefined to remove it from its parent).
export function replaceAt(node: Node, path: Path, change: (n: Node) => Node | undefined): Node | undefined {
  if (path.length === 0) return change(node);
  const [i, ...rest] = path;
  if (node instanceof Obj) {
    const entries: [string, Node][] = [];
    node.entries.forEach(([k, v], j) => {
      const next = j === i ? replaceAt(v, rest, change) : v;
      if (next !== undefined) entries.push([k, next]);
    });
    return new Obj(entries);
  }
  if (Array.isArray(node)) {
    const items: Node[] = [];
    node.forEach((v, j) => {
      const next = j === i ? replaceAt(v, rest, change) : v;
      if (next !== undefined) items.push(next);
    });
    return items;
  }
  return node;
}

// keyPath names a path in words (`metadata.labels.app`, `spec.containers[0]`) for case names.
export function keyPath(node: Node, path: Path): string {
  let out = '';
  let at = node;
  for (const i of path) {
    if (at instanceof Obj) {
      out += (out ? '.' : '') + at.entries[i][0];
      at = at.entries[i][1];
    } else if (Array.isArray(at)) {
      out += `[${i}]`;
      at = at[i];
    }
  }
  return out || '(root)';
}

// nested wraps a leaf in `depth` arrays or objects.
export function nested(depth: number, kind: 'array' | 'object', leaf = '1'): Raw {
  const text = kind === 'array' ? '['.repeat(depth) + leaf + ']'.repeat(depth) : '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
  return new Raw(text, text);
}
