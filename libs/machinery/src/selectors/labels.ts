// Label selector parsing (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) with the grammar and the error
// messages of labels.Parse in Kubernetes.
import type { FieldPath } from '../errors/field-path';
import { compareStrings } from '../go/strings';
import { scan, ScannedItem, Token } from './label-lexer';
import {
  binaryOperators,
  LabelRequirement,
  Labels,
  LabelsSelector,
  newLabelRequirement,
  SelectionOperator as Op,
  selectorFromRequirements,
  validateLabelKey,
} from './label-requirement';
import { SelectorError } from './selector-error';

export * from './label-requirement';
export { SelectorError } from './selector-error';

// Context tells whether `in` and `notin` are keywords (after a key) or plain values.
const enum Context {
  KeyAndOperator,
  Values,
}

class ParseError extends Error {}

class Parser {
  private position = 0;
  constructor(
    private readonly items: ScannedItem[],
    private readonly path: FieldPath | null,
  ) {}

  private lookahead(context: Context): ScannedItem {
    return this.asValue(this.items[this.position], context);
  }

  private consume(context: Context): ScannedItem {
    return this.asValue(this.items[this.position++], context);
  }

  private asValue(item: ScannedItem, context: Context): ScannedItem {
    if (context === Context.Values && (item.tok === Token.In || item.tok === Token.NotIn)) {
      return { tok: Token.Identifier, literal: item.literal };
    }
    return item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead(Context.Values);
      switch (tok) {
        case Token.Identifier:
        case Token.DoesNotExist: {
          requirements.push(this.parseRequirementWrapped());
          const next = this.consume(Context.Values);
          if (next.tok === Token.EndOfString) return requirements;
          if (next.tok !== Token.Comma) throw new ParseError(`found '${next.literal}', expected: ',' or 'end of string'`);
          const after = this.lookahead(Context.Values);
          if (after.tok !== Token.Identifier && after.tok !== Token.DoesNotExist) {
            throw new ParseError(`found '${after.literal}', expected: identifier after ','`);
          }
          break;
        }
        case Token.EndOfString:
          return requirements;
        default:
          throw new ParseError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirementWrapped(): LabelRequirement {
    try {
      return this.parseRequirement();
    } catch (err) {
      const message = `unable to parse requirement: ${(err as Error).message}`;
      throw err instanceof SelectorError ? new SelectorError(message, err.fieldErrors) : new ParseError(message);
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === Op.Exists || operator === Op.DoesNotExist) {
      return newLabelRequirement(key, operator, [], this.path);
    }
    const op = this.parseOperator();
    const values = op === Op.In || op === Op.NotIn ? this.parseValues() : this.parseExactValue();
    return newLabelRequirement(key, op, [...values].sort(compareStrings), this.path);
  }

  private parseKeyAndInferOperator(): { key: string; operator?: Op } {
    let operator: Op | undefined;
    let item = this.consume(Context.Values);
    if (item.tok === Token.DoesNotExist) {
      operator = Op.DoesNotExist;
      item = this.consume(Context.Values);
    }
    if (item.tok !== Token.Identifier) throw new ParseError(`found '${item.literal}', expected: identifier`);
    const keyErr = validateLabelKey(item.literal, this.path);
    if (keyErr) throw new SelectorError(keyErr.toString(), [keyErr]);
    const next = this.lookahead(Context.Values).tok;
    if ((next === Token.EndOfString || next === Token.Comma) && operator !== Op.DoesNotExist) operator = Op.Exists;
    return { key: item.literal, operator };
  }

  private parseOperator(): Op {
    const { tok, literal } = this.consume(Context.KeyAndOperator);
    switch (tok) {
      case Token.In:
        return Op.In;
      case Token.Equals:
        return Op.Equals;
      case Token.DoubleEquals:
        return Op.DoubleEquals;
      case Token.GreaterThan:
        return Op.GreaterThan;
      case Token.LessThan:
        return Op.LessThan;
      case Token.NotIn:
        return Op.NotIn;
      case Token.NotEquals:
        return Op.NotEquals;
      default:
        throw new ParseError(`found '${literal}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  // parseValues reads `(x,y,z)`; empty entries (`()`, `(,a)`, `(a,,b)`) are the empty value.
  private parseValues(): Set<string> {
    const open = this.consume(Context.Values);
    if (open.tok !== Token.OpenPar) throw new ParseError(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead(Context.Values);
    switch (tok) {
      case Token.Identifier:
      case Token.Comma: {
        const values = this.parseIdentifiersList();
        if (this.consume(Context.Values).tok !== Token.ClosedPar) throw new ParseError(`found '${literal}', expected: ')'`);
        return values;
      }
      case Token.ClosedPar:
        this.consume(Context.Values);
        return new Set(['']);
      default:
        throw new ParseError(`found '${literal}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume(Context.Values);
      if (tok === Token.Identifier) {
        values.add(literal);
        const next = this.lookahead(Context.Values);
        if (next.tok === Token.Comma) continue;
        if (next.tok === Token.ClosedPar) return values;
        throw new ParseError(`found '${next.literal}', expected: ',' or ')'`);
      } else if (tok === Token.Comma) {
        if (values.size === 0) values.add('');
        const next = this.lookahead(Context.Values).tok;
        if (next === Token.ClosedPar) {
          values.add('');
          return values;
        }
        if (next === Token.Comma) {
          this.consume(Context.Values);
          values.add('');
        }
      } else {
        throw new ParseError(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead(Context.Values).tok;
    if (next === Token.EndOfString || next === Token.Comma) return new Set(['']);
    const { tok, literal } = this.consume(Context.Values);
    if (tok === Token.Identifier) return new Set([literal]);
    throw new ParseError(`found '${literal}', expected: identifier`);
  }
}

// parseLabelSelector is labels.Parse: the empty string selects everything; errors throw a
// SelectorError with Kubernetes' message. `path` prefixes the field paths in validation errors.
export function parseLabelSelector(selector: string, path: FieldPath | null = null): LabelsSelector {
  return selectorFromRequirements(parseLabelRequirements(selector, path));
}

// parseLabelRequirements is labels.ParseToRequirements: the requirements sorted by key.
export function parseLabelRequirements(selector: string, path: FieldPath | null = null): LabelRequirement[] {
  try {
    return selectorFromRequirements(new Parser(scan(selector), path).parse()).requirements() as LabelRequirement[];
  } catch (err) {
    if (err instanceof ParseError) throw new SelectorError(err.message);
    throw err;
  }
}

// matchLabels tells whether a label set satisfies a selector, given parsed or as a string.
export function matchLabels(selector: LabelsSelector | string, labels: Labels | undefined): boolean {
  const parsed = typeof selector === 'string' ? parseLabelSelector(selector) : selector;
  return parsed.matches(labels);
}
