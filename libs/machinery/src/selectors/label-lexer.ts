// The label selector lexer of k8s.io/apimachinery/pkg/labels, token for token: whitespace
// separates, `= == != ! ( ) , < >` are symbols, `in` and `notin` are keywords, the rest identifiers.
export const Token = {
  Error: 0,
  EndOfString: 1,
  ClosedPar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;
export type Token = (typeof Token)[keyof typeof Token];

export interface ScannedItem {
  tok: Token;
  literal: string;
}

const string2token = new Map<string, Token>([
  [')', Token.ClosedPar],
  [',', Token.Comma],
  ['!', Token.DoesNotExist],
  ['==', Token.DoubleEquals],
  ['=', Token.Equals],
  ['>', Token.GreaterThan],
  ['in', Token.In],
  ['<', Token.LessThan],
  ['!=', Token.NotEquals],
  ['notin', Token.NotIn],
  ['(', Token.OpenPar],
]);

// END is what read() returns past the end; a NUL in the input reads the same, as in Go.
const END = '\u0000';

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return '=!(),><'.includes(ch) && ch !== '';
}

class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++];
    return END;
  }

  private unread(): void {
    this.pos--;
  }

  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === END) return { tok: Token.EndOfString, literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }

  private scanIdOrKeyword(): ScannedItem {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === END) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { tok: string2token.get(buffer) ?? Token.Identifier, literal: buffer };
  }

  // scanSpecialSymbol takes the longest run of symbols that is still a token ("!=" over "!").
  private scanSpecialSymbol(): ScannedItem {
    let last: ScannedItem | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === END) break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      const tok = string2token.get(buffer);
      if (tok !== undefined) {
        last = { tok, literal: buffer };
      } else if (last) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` };
  }
}

// scan lexes the whole selector, ending with an EndOfString item.
export function scan(selector: string): ScannedItem[] {
  const lexer = new Lexer(selector);
  const items: ScannedItem[] = [];
  for (;;) {
    const item = lexer.lex();
    items.push(item);
    if (item.tok === Token.EndOfString) return items;
  }
}
