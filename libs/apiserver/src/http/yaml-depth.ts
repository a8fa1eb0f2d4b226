// yamlNestingError refuses a YAML document nested deeper than Plinth reads, before the YAML
// parser runs: its composer recurses once per level and runs out of stack near 800 levels, and
// V8 ends the whole process (not just the request) when it compiles a regular expression with
// the stack nearly exhausted, which the composer's error path does. go-yaml stops at 10,000
// levels (max_flow_level, max_indents) with `yaml: exceeded max depth of 10000`; Plinth answers
// in those words at 500 levels, which no Kubernetes object comes near.
//
// The depth counted is the open flow collections ([...] and {...}) plus the block collections
// the indentation opens (each deeper indentation, and each "- " or "? " that starts a line's
// content); quoted scalars, block scalars (| and >) and comments are skipped.
export const maxYamlDepth = 500;

// indicators are the characters that do not start a plain scalar where a node starts.
const indicators = new Set([' ', '\t', '\r', '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

const blockScalarHeader = /^[|>][-+0-9]*\s*(#.*)?$/;

export function yamlNestingError(text: string): string | null {
  const limit = (line: number) => `yaml: ${line > 1 ? `line ${line}: ` : ''}exceeded max depth of ${maxYamlDepth}`;
  const indents: number[] = [];
  let flow = 0;
  let line = 1;
  let pos = 0;
  // blockScalarIndent is the indentation of the line that opened a block scalar, whose more
  // indented lines are text; -1 outside one.
  let blockScalarIndent = -1;
  while (pos < text.length) {
    const end = lineEnd(text, pos);
    let column = 0;
    while (pos + column < end && text[pos + column] === ' ') column++;
    const blank = pos + column >= end || text[pos + column] === '#' || text[pos + column] === '\r';
    if (blockScalarIndent >= 0 && (blank || column > blockScalarIndent)) {
      pos = end + 1;
      line++;
      continue;
    }
    blockScalarIndent = -1;
    if (blank) {
      pos = end + 1;
      line++;
      continue;
    }
    if (flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1] >= column) indents.pop();
      indents.push(column);
      // Compact nested sequences and complex keys ("- - - a") open a level each on one line.
      let i = pos + column;
      while (i + 1 < end && (text[i] === '-' || text[i] === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
        i += 2;
        while (i < end && text[i] === ' ') i++;
        indents.push(i - pos);
      }
      if (indents.length > maxYamlDepth) return limit(line);
    }
    // The rest of the line: flow collections, quoted scalars (which may run over lines), a
    // comment, a block scalar opener.
    let last = end;
    let previous = ' ';
    // plain is set inside a plain scalar, whose brackets are text: it ends at ": ", and in a
    // flow collection at a separator too.
    let plain = false;
    for (let i = pos + column; i < last; i++) {
      const c = text[i];
      if (c === '#' && (previous === ' ' || previous === '\t')) break;
      if (plain) {
        const next = text[i + 1];
        if (c === ':' && (next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r' || (flow > 0 && (next === ',' || next === ']' || next === '}')))) plain = false;
        else if (flow > 0 && (c === ',' || c === ']' || c === '}')) plain = false;
        else {
          previous = c;
          continue;
        }
      }
      if ((c === '"' || c === "'") && startsNode(previous)) {
        const close = quotedEnd(text, i, c);
        for (let j = i; j < close; j++) if (text[j] === '\n') line++;
        if (close > last) last = lineEnd(text, close);
        i = close;
      } else if ((c === '[' || c === '{') && startsNode(previous)) {
        flow++;
        if (flow + indents.length > maxYamlDepth) return limit(line);
      } else if ((c === ']' || c === '}') && flow > 0) {
        flow--;
      } else if ((c === '|' || c === '>') && flow === 0 && startsNode(previous) && blockScalarHeader.test(text.slice(i, last).trimEnd())) {
        blockScalarIndent = column;
        break;
      } else if (startsNode(previous) && !indicators.has(c)) {
        plain = true;
      }
      if (c !== ' ' && c !== '\t') previous = c;
    }
    pos = last + 1;
    line++;
  }
  return null;
}

// startsNode says whether a character after previous begins a node: after a space or an
// indicator, or where a flow collection separates its entries.
function startsNode(previous: string): boolean {
  return previous === ' ' || previous === '\t' || previous === ':' || previous === '-' || previous === '?' || previous === ',' || previous === '[' || previous === '{';
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end;
}

// quotedEnd is the index of the quote closing a quoted scalar that starts at start.
function quotedEnd(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return text.length;
}
