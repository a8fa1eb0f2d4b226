// Number literals through a patch. kube-apiserver applies a JSON, merge or strategic merge patch
// to JSON, so a number the patch writes (`1e2`, `15.0`, 9223372036854775808) reaches Go's
// decoder as written, which refuses it for an integer field. A JS number would lose that text, so
// the patch carries such a number as a token string naming its literal, and the patched
// object's JSON text gets the literal back in place of the token.
import { randomUUID } from 'node:crypto';
import { cloneJson, exactInteger, holdsExactIntegers } from '@plinth/machinery';
import type { NumberLiterals } from '../field-validation';

export interface LiteralTokens {
  // restore puts the literals back into the JSON text of the patched object.
  restore(json: string): string;
  // nonce marks the tokens, when there are any.
  nonce?: string;
}

const noTokens: LiteralTokens = { restore: (json) => json };

// withExactTokens is current (a custom resource as stored) with its int64s beyond 2^53 as
// tokens too, so that the patch, which copies current, keeps their digits: the patch's tokens
// and these share the nonce, so a JSON patch test compares them as the literals they are.
export function withExactTokens(current: unknown, tokens: LiteralTokens): { current: unknown; tokens: LiteralTokens } {
  if (!holdsExactIntegers(current)) return { current, tokens };
  const nonce = tokens.nonce ?? randomUUID();
  const copy = cloneJson(current);
  let replaced = false;
  const stack: object[] = [copy as object];
  while (stack.length > 0) {
    const container = stack.pop() as Record<string | number, unknown>;
    for (const key of Array.isArray(container) ? container.keys() : Object.keys(container)) {
      const value = container[key];
      const exact = typeof value === 'number' ? exactInteger(container, key) : undefined;
      if (exact !== undefined) {
        container[key] = `\u0000${nonce}:${exact}\u0000`;
        replaced = true;
      } else if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return replaced ? { current: copy, tokens: restoring(nonce) } : { current, tokens };
}

// restoring puts back the literals of the tokens of nonce.
function restoring(nonce: string): LiteralTokens {
  // JSON.stringify writes the token's NULs as \u0000
  const tokenText = new RegExp(`"\\\\u0000${nonce}:([^"\\\\]+)\\\\u0000"`, 'g');
  return { nonce, restore: (json) => json.replace(tokenText, (_m, literal: string) => literal) };
}

const numberGrammar = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

// tokenizeLiterals replaces, in place, the inexact numbers of the patch's values by tokens. A
// JSON patch has its values under add, replace and test operations (a test compares the raw
// JSON, so 1e2 equals only 1e2); merge patches everywhere but in strategic merge directives
// ($setElementOrder/..., $deleteFromPrimitiveList/..., $retainKeys), which compare values with
// the object's.
export function tokenizeLiterals(patch: unknown, literals: NumberLiterals | undefined, jsonPatch: boolean): LiteralTokens {
  if (!literals) return noTokens;
  const nonce = randomUUID();
  const token = (literal: string) => `\u0000${nonce}:${literal}\u0000`;
  let replaced = false;
  const visit = (container: Record<string | number, unknown>, key: string | number): void => {
    const value = container[key];
    const literal = literals.get(container)?.get(key);
    if (typeof value === 'number' && literal !== undefined && numberGrammar.test(literal)) {
      container[key] = token(literal);
      replaced = true;
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value as unknown as Record<number, unknown>, i);
    } else if (value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) if (!k.startsWith('$')) visit(value as Record<string, unknown>, k);
    }
  };
  if (jsonPatch) {
    if (!Array.isArray(patch)) return noTokens;
    for (const op of patch) {
      if (op !== null && typeof op === 'object' && (op.op === 'add' || op.op === 'replace' || op.op === 'test')) visit(op, 'value');
    }
  } else {
    visit({ patch }, 'patch');
  }
  return replaced ? restoring(nonce) : noTokens;
}
