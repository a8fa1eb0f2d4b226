// Property-name escaping of Kubernetes CEL (apiserver/pkg/cel/escaping.go): a property is
// accessible when its name matches [a-zA-Z_.-/][a-zA-Z0-9_.-/]*; `__` becomes `__underscores__`,
// `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a CEL reserved word `__{word}__`.

const celReservedSymbols = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const accessible = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

// escapePropertyName returns the CEL name of a property, or null when it is not accessible.
export function escapePropertyName(name: string): string | null {
  if (celReservedSymbols.has(name)) return `__${name}__`;
  if (!accessible.test(name)) return null;
  return name.replace(/__|[.\-/]/g, (m) => (m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__'));
}

// unescapePropertyName maps a CEL field name back to the property name.
export function unescapePropertyName(name: string): string {
  const reserved = /^__(\w+)__$/.exec(name);
  if (reserved && celReservedSymbols.has(reserved[1])) return reserved[1];
  return name.replace(/__(underscores|dot|dash|slash)__/g, (_m, word: string) =>
    word === 'underscores' ? '__' : word === 'dot' ? '.' : word === 'dash' ? '-' : '/',
  );
}
