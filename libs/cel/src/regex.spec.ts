// The Pike VM finds the same leftmost-first matches as a backtracking engine on patterns both
// read alike, with Go's FindAllString rule for empty matches; RE2-only syntax is in
// libraries.spec.ts.
import { Regex } from './regex';

// goFindAll is FindAllString over JavaScript's RegExp, as the oracle.
function goFindAll(pattern: string, text: string): string[] {
  const re = new RegExp(pattern, 'g');
  const out: string[] = [];
  let pos = 0;
  let prevEnd = -1;
  while (pos <= text.length) {
    re.lastIndex = pos;
    const match = re.exec(text);
    if (!match) break;
    const start = match.index;
    const end = start + match[0].length;
    const accept = !(end === pos && start === prevEnd);
    pos = end === pos ? pos + 1 : end;
    prevEnd = end;
    if (accept) out.push(match[0]);
  }
  return out;
}

// texts are every string of up to four characters over a small alphabet.
function texts(alphabet: string[], maxLength: number): string[] {
  let level = [''];
  const all = [''];
  for (let i = 0; i < maxLength; i++) {
    level = level.flatMap((t) => alphabet.map((c) => t + c));
    all.push(...level);
  }
  return all;
}

describe('RE2 matching positions', () => {
  const inputs = texts(['a', 'b', 'c', ' ', '\n'], 4);
  it.each(['a|ab', '(a|ab)(c|bcd)(d*)', 'a*?b', 'a+?', '(a+)(b+)?', 'x*', '[a-c]+', '\\bab\\b', '^a', 'a$', '(?:ab|a)(?:ba|b)*', 'a{2,3}', 'a{2,3}?', '.', 'b|', '(a*)*', '(a|b)*?c', '[^a]+', '(?:a?)+b'])(
    '%s',
    (pattern) => {
      const re = new Regex(pattern);
      for (const text of inputs) expect([text, re.findAll(text, -1)]).toEqual([text, goFindAll(pattern, text)]);
    },
  );
});
