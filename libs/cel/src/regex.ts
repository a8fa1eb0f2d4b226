// RE2 matching with positions, for the regex library's find and findAll. @bufbuild/re2 parses
// and compiles RE2 syntax but only answers whether a string matches; this runs its compiled
// program on a Pike VM (as Go's regexp/exec.go does), so matches are leftmost-first with RE2's
// (Go's) semantics, in time linear in the input.
import { RE2JS } from '@bufbuild/re2';

interface Inst {
  op: number;
  out: number;
  arg: number;
  matchRune(r: number): boolean;
}

interface Prog {
  inst: Inst[];
  start: number;
}

// The instruction codes of @bufbuild/re2's Inst (Go's syntax.InstOp order).
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const MATCH = 6;
const NOP = 7;
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;

// Empty-width assertions (Go's syntax.EmptyOp).
const BEGIN_LINE = 1;
const END_LINE = 2;
const BEGIN_TEXT = 4;
const END_TEXT = 8;
const WORD_BOUNDARY = 16;
const NO_WORD_BOUNDARY = 32;

const END = -1;

function isWordChar(r: number): boolean {
  return (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a) || r === 0x5f;
}

// emptyContext is the set of assertions true between runes before and after (END at an edge).
function emptyContext(before: number, after: number): number {
  let op = NO_WORD_BOUNDARY;
  let boundary = false;
  if (isWordChar(before)) boundary = true;
  else if (before === 0x0a) op |= BEGIN_LINE;
  else if (before === END) op |= BEGIN_TEXT | BEGIN_LINE;
  if (isWordChar(after)) boundary = !boundary;
  else if (after === 0x0a) op |= END_LINE;
  else if (after === END) op |= END_TEXT | END_LINE;
  if (boundary) op ^= WORD_BOUNDARY | NO_WORD_BOUNDARY;
  return op;
}

interface Thread {
  pc: number;
  start: number;
}

// Queue is the ordered set of threads at one position, each instruction at most once.
class Queue {
  readonly threads: Thread[] = [];
  private readonly seen = new Set<number>();

  visit(pc: number): boolean {
    if (this.seen.has(pc)) return false;
    this.seen.add(pc);
    return true;
  }

  clear(): void {
    this.threads.length = 0;
    this.seen.clear();
  }
}

// Regex is a compiled RE2 pattern.
export class Regex {
  private readonly prog: Prog;

  constructor(pattern: string) {
    this.prog = (RE2JS.compile(pattern).re2() as unknown as { prog: Prog }).prog;
  }

  // add follows the empty transitions from pc, queueing the threads that wait for a rune.
  private add(queue: Queue, pc: number, pos: number, start: number, context: number): void {
    if (!queue.visit(pc)) return;
    const inst = this.prog.inst[pc];
    switch (inst.op) {
      case ALT:
      case ALT_MATCH:
        this.add(queue, inst.out, pos, start, context);
        this.add(queue, inst.arg, pos, start, context);
        return;
      case EMPTY_WIDTH:
        if ((inst.arg & ~context) === 0) this.add(queue, inst.out, pos, start, context);
        return;
      case NOP:
      case CAPTURE:
        this.add(queue, inst.out, pos, start, context);
        return;
      default:
        queue.threads.push({ pc, start });
    }
  }

  // matchAt returns the leftmost-first match at or after pos as [start, end], or null.
  matchAt(text: string, pos: number): [number, number] | null {
    const runeAt = (i: number): number => (i < text.length ? (text.codePointAt(i) as number) : END);
    const width = (r: number): number => (r === END ? 0 : r > 0xffff ? 2 : 1);
    let current = new Queue();
    let next = new Queue();
    let match: [number, number] | null = null;
    let r = runeAt(pos);
    let before = pos > 0 ? (text.codePointAt(pos - 1) as number) : END;
    if (pos > 1 && before >= 0xdc00 && before <= 0xdfff) before = text.codePointAt(pos - 2) as number;
    for (;;) {
      if (current.threads.length === 0 && match) break;
      if (!match) this.add(current, this.prog.start, pos, pos, emptyContext(before, r));
      const nextPos = pos + width(r);
      const after = runeAt(nextPos);
      const context = emptyContext(r, after);
      for (const thread of current.threads) {
        const inst = this.prog.inst[thread.pc];
        if (inst.op === MATCH) {
          match = [thread.start, pos];
          break; // Lower-priority threads are cut off.
        }
        if (r !== END && this.matchesRune(inst, r)) this.add(next, inst.out, nextPos, thread.start, context);
      }
      if (r === END) break;
      before = r;
      r = after;
      pos = nextPos;
      [current, next] = [next, current];
      next.clear();
    }
    return match;
  }

  private matchesRune(inst: Inst, r: number): boolean {
    switch (inst.op) {
      case RUNE:
      case RUNE1:
        return inst.matchRune(r);
      case RUNE_ANY:
        return true;
      case RUNE_ANY_NOT_NL:
        return r !== 0x0a;
      default:
        return false;
    }
  }

  // findAll is Go's FindAllString: successive non-overlapping matches, an empty match right
  // after the previous one skipped; n < 0 means all of them.
  findAll(text: string, n: number): string[] {
    const out: string[] = [];
    let pos = 0;
    let prevEnd = -1;
    while ((n < 0 || out.length < n) && pos <= text.length) {
      const match = this.matchAt(text, pos);
      if (!match) break;
      const [start, end] = match;
      let accept = true;
      if (end === pos) {
        if (start === prevEnd) accept = false;
        const r = text.codePointAt(pos);
        pos += r === undefined ? 1 : r > 0xffff ? 2 : 1;
      } else {
        pos = end;
      }
      prevEnd = end;
      if (accept) out.push(text.slice(start, end));
    }
    return out;
  }
}

// compiled keeps the most recently used patterns, as a rule runs its literal ones over and over.
const compiled = new Map<string, Regex>();
const compiledLimit = 256;

// compileRegex compiles an RE2 pattern, failing as Kubernetes does on anything else.
export function compileRegex(pattern: string): Regex {
  let regex = compiled.get(pattern);
  if (regex) {
    compiled.delete(pattern);
  } else {
    try {
      regex = new Regex(pattern);
    } catch (err) {
      throw new Error(`Illegal regex: ${(err as Error).message}`);
    }
    if (compiled.size >= compiledLimit) compiled.delete(compiled.keys().next().value as string);
  }
  compiled.set(pattern, regex);
  return regex;
}

// PatternMatcher tests strings against an OpenAPI `pattern`, or holds why the pattern does not
// compile.
export type PatternMatcher = { test(value: string): boolean; error?: undefined } | { error: string };

const patterns = new Map<string, PatternMatcher>();
const patternsLimit = 256;

// patternMatcher compiles a schema's `pattern` as kube-openapi does, with Go's regexp (RE2):
// an unanchored search in time linear in the input whatever the pattern, where a backtracking
// RegExp would let a pattern like ^(a+)+$ hold the event loop for minutes on a short string.
// A pattern RE2 refuses answers Go's compile error.
export function patternMatcher(pattern: string): PatternMatcher {
  let matcher = patterns.get(pattern);
  if (!matcher) {
    try {
      const re = RE2JS.compile(pattern);
      matcher = { test: (value) => re.test(value) };
    } catch (err) {
      matcher = { error: (err as Error).message };
    }
    if (patterns.size >= patternsLimit) patterns.delete(patterns.keys().next().value as string);
    patterns.set(pattern, matcher);
  }
  return matcher;
}
