// formatError prints a type-check or syntax error as cel-go does.
export interface Found {
  offset: number;
  message: string;
}

// formatError prints an error at an offset of the expression as cel-go does: position, message,
// the source line and a caret under the offending character.
export function formatError(expression: string, found: Found): string {
  const before = expression.slice(0, found.offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = found.offset - lineStart + 1;
  const sourceLine = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${found.message}\n | ${sourceLine}\n | ${'.'.repeat(column - 1)}^`;
}
