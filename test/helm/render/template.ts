// A Go text/template interpreter for the subset of Helm templates that helm/plinth uses, so
// the chart can be rendered and checked where Helm cannot be installed. It knows actions
// ({{ }} with {{- -}} trimming and comments), pipelines, variables ($, $x := ...), field
// chains, parenthesised pipelines, if/else if/else, range (over lists and maps, with $i, $v),
// with, define, and the functions in functions.ts. Anything else is a parse error naming it,
// so a template that strays from the subset fails the chart test rather than rendering wrong.

export type Value = unknown;

export type TemplateFunction = (...args: Value[]) => Value;

type Arg =
  | { kind: 'literal'; value: Value }
  | { kind: 'field'; base: 'dot' | 'root' | 'var'; variable?: string; path: string[] }
  | { kind: 'function'; name: string }
  | { kind: 'pipe'; pipe: Pipe };

interface Pipe {
  declare?: string[];
  commands: Arg[][];
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipe }
  | { kind: 'if'; branches: { pipe: Pipe; body: Node[] }[]; otherwise: Node[] }
  | { kind: 'range'; pipe: Pipe; body: Node[]; otherwise: Node[] }
  | { kind: 'with'; pipe: Pipe; body: Node[]; otherwise: Node[] };

export class TemplateError extends Error {}

// Templates holds parsed files and the named templates they define.
export class Templates {
  private readonly files = new Map<string, Node[]>();
  private readonly defines = new Map<string, Node[]>();

  constructor(private readonly functions: Record<string, TemplateFunction>) {}

  parse(name: string, source: string): void {
    const parser = new Parser(name, source, this.defines);
    this.files.set(name, parser.parseAll());
  }

  // render executes a parsed file with dot (and $) bound to data.
  render(name: string, data: Value): string {
    const nodes = this.files.get(name);
    if (!nodes) throw new TemplateError(`no template file ${name}`);
    return new Executor(this.functions, this.defines, data, name).run(nodes, data, new Map());
  }

  // include executes a defined template, as Helm's include function.
  include(name: string, data: Value): string {
    const nodes = this.defines.get(name);
    if (!nodes) throw new TemplateError(`no template "${name}" associated with template "gotpl"`);
    return new Executor(this.functions, this.defines, data, name).run(nodes, data, new Map());
  }
}

// --- lexing and parsing ---

interface Token {
  type: 'text' | 'action';
  value: string;
}

function lex(name: string, source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let trimNext = false;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    let text = open < 0 ? source.slice(at) : source.slice(at, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open < 0) {
      if (text) tokens.push({ type: 'text', value: text });
      break;
    }
    let inner = open + 2;
    if (source.startsWith('- ', inner) || source.startsWith('-\n', inner)) {
      text = text.replace(/\s+$/, '');
      inner += 1;
    }
    if (text) tokens.push({ type: 'text', value: text });
    const close = findClose(source, inner);
    if (close < 0) throw new TemplateError(`${name}: unclosed action`);
    let body = source.slice(inner, close);
    trimNext = false;
    if (/\s-$/.test(body)) {
      body = body.slice(0, -1);
      trimNext = true;
    }
    tokens.push({ type: 'action', value: body.trim() });
    at = close + 2;
  }
  return tokens;
}

// findClose finds the }} ending an action, skipping quoted strings.
function findClose(source: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === '`') quote = c;
    else if (c === '}' && source[i + 1] === '}') return i;
  }
  return -1;
}

class Parser {
  private readonly tokens: Token[];
  private at = 0;

  constructor(
    private readonly name: string,
    source: string,
    private readonly defines: Map<string, Node[]>,
  ) {
    this.tokens = lex(name, source);
  }

  parseAll(): Node[] {
    const { nodes, end } = this.parseList();
    if (end !== null) throw new TemplateError(`${this.name}: unexpected {{${end}}}`);
    return nodes;
  }

  // parseList reads nodes up to an {{end}} or {{else ...}} (returned as end) or the input's end.
  private parseList(): { nodes: Node[]; end: string | null } {
    const nodes: Node[] = [];
    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at++];
      if (token.type === 'text') {
        nodes.push({ kind: 'text', text: token.value });
        continue;
      }
      const action = token.value;
      if (action.startsWith('/*')) {
        if (!action.endsWith('*/')) throw new TemplateError(`${this.name}: unclosed comment`);
        continue;
      }
      const [keyword] = action.split(/\s+/, 1);
      const rest = action.slice(keyword.length).trim();
      switch (keyword) {
        case 'end':
        case 'else':
          return { nodes, end: action };
        case 'if':
          nodes.push(this.parseIf(rest));
          break;
        case 'range':
        case 'with': {
          const pipe = parsePipe(this.name, rest);
          const body = this.parseList();
          let otherwise: Node[] = [];
          if (body.end === 'else') otherwise = this.expectEnd(this.parseList());
          else this.expectEnd(body);
          nodes.push({ kind: keyword, pipe, body: body.nodes, otherwise });
          break;
        }
        case 'define': {
          const name = parsePipe(this.name, rest).commands[0]?.[0];
          if (!name || name.kind !== 'literal' || typeof name.value !== 'string') throw new TemplateError(`${this.name}: define needs a name`);
          this.defines.set(name.value, this.expectEnd(this.parseList()));
          break;
        }
        case 'template':
        case 'block':
        case 'break':
        case 'continue':
          throw new TemplateError(`${this.name}: {{${keyword}}} is outside the supported subset`);
        default:
          nodes.push({ kind: 'action', pipe: parsePipe(this.name, action) });
      }
    }
    return { nodes, end: null };
  }

  private parseIf(condition: string): Node {
    const branches: { pipe: Pipe; body: Node[] }[] = [];
    let pipe = parsePipe(this.name, condition);
    for (;;) {
      const body = this.parseList();
      branches.push({ pipe, body: body.nodes });
      if (body.end === null) throw new TemplateError(`${this.name}: unclosed if`);
      if (body.end === 'end') return { kind: 'if', branches, otherwise: [] };
      if (body.end === 'else') return { kind: 'if', branches, otherwise: this.expectEnd(this.parseList()) };
      const elseIf = /^else\s+if\s+(.*)$/s.exec(body.end);
      if (!elseIf) throw new TemplateError(`${this.name}: unexpected {{${body.end}}}`);
      pipe = parsePipe(this.name, elseIf[1]);
    }
  }

  private expectEnd(list: { nodes: Node[]; end: string | null }): Node[] {
    if (list.end !== 'end') throw new TemplateError(`${this.name}: expected {{end}}, found ${list.end === null ? 'the end of input' : `{{${list.end}}}`}`);
    return list.nodes;
  }
}

const tokenPattern = /\s+|"(?:[^"\\]|\\.)*"|`[^`]*`|\(|\)|\||:=|=|,|-?\d+(?:\.\d+)?|\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|(?:\.[A-Za-z0-9_]+)+|\.|[A-Za-z_][A-Za-z0-9_]*/y;

function tokenize(file: string, text: string): string[] {
  const words: string[] = [];
  tokenPattern.lastIndex = 0;
  while (tokenPattern.lastIndex < text.length) {
    const start = tokenPattern.lastIndex;
    const match = tokenPattern.exec(text);
    if (!match) throw new TemplateError(`${file}: cannot read "${text.slice(start)}"`);
    if (!/^\s+$/.test(match[0])) words.push(match[0]);
  }
  return words;
}

function parsePipe(file: string, text: string): Pipe {
  const words = tokenize(file, text);
  let at = 0;
  const pipe: Pipe = { commands: [] };
  const decl = words.indexOf(':=');
  if (decl > 0 && words.slice(0, decl).every((w, i) => (i % 2 === 0 ? w.startsWith('$') : w === ','))) {
    pipe.declare = words.slice(0, decl).filter((w) => w !== ',');
    at = decl + 1;
  } else if (words.includes('=')) {
    throw new TemplateError(`${file}: variable assignment is outside the supported subset`);
  }
  const parseCommands = (stopAtParen: boolean): Arg[][] => {
    const commands: Arg[][] = [[]];
    while (at < words.length) {
      const word = words[at++];
      if (word === ')') {
        if (!stopAtParen) throw new TemplateError(`${file}: unexpected ) in ${text}`);
        return commands;
      }
      if (word === '|') {
        commands.push([]);
        continue;
      }
      commands[commands.length - 1].push(word === '(' ? { kind: 'pipe', pipe: { commands: parseCommands(true) } } : argOf(file, word));
    }
    if (stopAtParen) throw new TemplateError(`${file}: unclosed ( in ${text}`);
    return commands;
  };
  pipe.commands = parseCommands(false);
  if (pipe.commands.some((c) => c.length === 0)) throw new TemplateError(`${file}: empty command in ${text}`);
  return pipe;
}

function argOf(file: string, word: string): Arg {
  if (word.startsWith('"')) return { kind: 'literal', value: JSON.parse(word) as string };
  if (word.startsWith('`')) return { kind: 'literal', value: word.slice(1, -1) };
  if (/^-?\d/.test(word)) return { kind: 'literal', value: Number(word) };
  if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
  if (word === 'nil') return { kind: 'literal', value: null };
  if (word === '.') return { kind: 'field', base: 'dot', path: [] };
  if (word.startsWith('.')) return { kind: 'field', base: 'dot', path: word.slice(1).split('.') };
  if (word.startsWith('$')) {
    const [variable, ...path] = word.split('.');
    return variable === '$' ? { kind: 'field', base: 'root', path } : { kind: 'field', base: 'var', variable, path };
  }
  if (/^[A-Za-z_]/.test(word)) return { kind: 'function', name: word };
  throw new TemplateError(`${file}: unexpected "${word}"`);
}

// --- execution ---

type Scope = Map<string, Value>;

class Executor {
  constructor(
    private readonly functions: Record<string, TemplateFunction>,
    private readonly defines: Map<string, Node[]>,
    private readonly root: Value,
    private readonly file: string,
  ) {}

  run(nodes: Node[], dot: Value, scope: Scope): string {
    let out = '';
    for (const node of nodes) {
      switch (node.kind) {
        case 'text':
          out += node.text;
          break;
        case 'action': {
          const value = this.pipe(node.pipe, dot, scope);
          if (!node.pipe.declare) out += printValue(value);
          break;
        }
        case 'if': {
          const branch = node.branches.find((b) => truthy(this.pipe(b.pipe, dot, scope)));
          out += this.run(branch ? branch.body : node.otherwise, dot, new Map(scope));
          break;
        }
        case 'with': {
          const value = this.pipe(node.pipe, dot, scope);
          out += truthy(value) ? this.run(node.body, value, new Map(scope)) : this.run(node.otherwise, dot, new Map(scope));
          break;
        }
        case 'range':
          out += this.range(node, dot, scope);
          break;
      }
    }
    return out;
  }

  private range(node: Node & { kind: 'range' }, dot: Value, scope: Scope): string {
    const value = this.pipe({ commands: node.pipe.commands }, dot, scope);
    let entries: [Value, Value][];
    if (Array.isArray(value)) entries = value.map((v, i) => [i, v]);
    else if (isMap(value)) entries = Object.keys(value).sort().map((k) => [k, value[k]]);
    else if (value === null || value === undefined) entries = [];
    else if (typeof value === 'number') entries = Array.from({ length: value }, (_, i) => [i, i]);
    else throw new TemplateError(`${this.file}: range can't iterate over ${printValue(value)}`);
    if (entries.length === 0) return this.run(node.otherwise, dot, new Map(scope));
    let out = '';
    for (const [key, item] of entries) {
      const inner = new Map(scope);
      const names = node.pipe.declare ?? [];
      if (names.length === 1) inner.set(names[0], item);
      if (names.length === 2) {
        inner.set(names[0], key);
        inner.set(names[1], item);
      }
      out += this.run(node.body, item, inner);
    }
    return out;
  }

  private pipe(pipe: Pipe, dot: Value, scope: Scope): Value {
    let value: Value = undefined;
    pipe.commands.forEach((command, i) => {
      value = this.command(command, dot, scope, i === 0 ? [] : [value]);
    });
    if (pipe.declare) scope.set(pipe.declare[0], value);
    return value;
  }

  private command(command: Arg[], dot: Value, scope: Scope, piped: Value[]): Value {
    const [head, ...rest] = command;
    if (head.kind === 'function') {
      if (head.name === 'include') {
        const [name, data] = [...rest.map((a) => this.arg(a, dot, scope)), ...piped];
        const nodes = this.defines.get(String(name));
        if (!nodes) throw new TemplateError(`${this.file}: no template "${String(name)}"`);
        return this.run(nodes, data, new Map());
      }
      const fn = this.functions[head.name];
      if (!fn) throw new TemplateError(`${this.file}: function "${head.name}" not defined`);
      return fn(...rest.map((a) => this.arg(a, dot, scope)), ...piped);
    }
    const value = this.arg(head, dot, scope);
    if (typeof value === 'function') return (value as TemplateFunction)(...rest.map((a) => this.arg(a, dot, scope)), ...piped);
    if (rest.length > 0 || piped.length > 0) throw new TemplateError(`${this.file}: can't give arguments to a non-function`);
    return value;
  }

  private arg(arg: Arg, dot: Value, scope: Scope): Value {
    switch (arg.kind) {
      case 'literal':
        return arg.value;
      case 'pipe':
        return this.pipe(arg.pipe, dot, scope);
      case 'function':
        return this.command([arg], dot, scope, []);
      case 'field': {
        let base: Value;
        if (arg.base === 'dot') base = dot;
        else if (arg.base === 'root') base = this.root;
        else {
          if (!scope.has(arg.variable as string)) throw new TemplateError(`${this.file}: undefined variable "${arg.variable}"`);
          base = scope.get(arg.variable as string);
        }
        return this.field(base, arg.path);
      }
    }
  }

  private field(base: Value, path: string[]): Value {
    let value = base;
    for (const [i, name] of path.entries()) {
      if (value === null || value === undefined) throw new TemplateError(`${this.file}: nil pointer evaluating .${path.slice(0, i + 1).join('.')}`);
      if (!isMap(value)) throw new TemplateError(`${this.file}: can't evaluate field ${name} in ${printValue(value)}`);
      value = value[name];
    }
    return value;
  }
}

export function isMap(value: Value): value is Record<string, Value> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// truthy is text/template's truth: false, 0, nil, and empty strings, lists and maps are false.
export function truthy(value: Value): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

// printValue prints as text/template does for the values YAML gives (Helm prints a missing
// value as the empty string).
export function printValue(value: Value): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return `[${value.map(printValue).join(' ')}]`;
  if (isMap(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${printValue(value[k])}`).join(' ')}]`;
  return String(value);
}
