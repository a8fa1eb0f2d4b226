// The template functions helm/plinth uses, with the semantics of Go's text/template builtins and
// of Sprig/Helm where they come from (toYaml sorts keys and drops the final newline, as
// sigs.k8s.io/yaml does; indent pads every line; quote is Go's %q).
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { printValue, TemplateError, TemplateFunction, truthy, Value } from './template';

export const templateFunctions: Record<string, TemplateFunction> = {
  toYaml: (value) => toYaml(value),
  indent: (spaces, text) => indent(Number(spaces), printValue(text)),
  nindent: (spaces, text) => `\n${indent(Number(spaces), printValue(text))}`,
  quote: (...values) => values.filter((v) => v !== null && v !== undefined).map((v) => goQuote(printValue(v))).join(' '),
  default: (...args) => {
    const [fallback, given] = args;
    return args.length < 2 || !truthy(given) ? fallback : given;
  },
  printf: (format, ...args) => sprintf(String(format), args),
  b64enc: (text) => Buffer.from(printValue(text), 'utf8').toString('base64'),
  sha256sum: (text) => createHash('sha256').update(printValue(text), 'utf8').digest('hex'),
  join: (separator, list) => (Array.isArray(list) ? list.map((v) => printValue(v)).join(printValue(separator)) : printValue(list)),
  int: (value) => Math.trunc(Number(value)),
  until: (count) => Array.from({ length: Number(count) }, (_, i) => i),
  eq: (a, ...others) => others.some((b) => a === b),
  ne: (a, b) => a !== b,
  gt: (a, b) => Number(a) > Number(b),
  not: (value) => !truthy(value),
  and: (...values) => values.find((v) => !truthy(v)) ?? values[values.length - 1],
  or: (...values) => values.find((v) => truthy(v)) ?? values[values.length - 1],
};

export function toYaml(value: Value): string {
  if (value === null || value === undefined) return 'null';
  return stringify(value, { sortMapEntries: true, indentSeq: false, lineWidth: 0 }).replace(/\n$/, '');
}

function indent(spaces: number, text: string): string {
  const pad = ' '.repeat(spaces);
  return pad + text.replace(/\n/g, `\n${pad}`);
}

// goQuote is fmt's %q for the printable text a chart quotes.
function goQuote(text: string): string {
  return JSON.stringify(text);
}

// sprintf knows the verbs a chart needs: %s, %d, %v and %%.
function sprintf(format: string, args: Value[]): string {
  let next = 0;
  return format.replace(/%([sdv%])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[next++];
    if (verb === 'd' && typeof arg !== 'number') throw new TemplateError(`printf: %d of ${printValue(arg)}`);
    return printValue(arg);
  });
}
