import { CompileError, compileExpression } from './program';
import { markOptionalSyntax } from './optionals';
import { toCelValue } from './values';
import { JSONSchemaProps } from './schema';
import { schemaDeclType } from './check/decl-type';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    obj: { type: 'object', properties: { field: { type: 'string' }, n: { type: 'integer' } } },
    m: { type: 'object', additionalProperties: { type: 'integer' } },
    l: { type: 'array', items: { type: 'string' } },
  },
};
const object = { obj: { field: 'a' }, m: { k: 1 }, l: ['x'] };

function compileError(expression: string, environment: 'compatible' | 'full'): string {
  try {
    compileExpression(expression, ['self'], { self: schemaDeclType(schema, false, 'selfType'), environment });
  } catch (err) {
    if (err instanceof CompileError) return err.detail;
    throw err;
  }
  return '';
}

function evaluate(expression: string): unknown {
  const program = compileExpression(expression, ['self'], { self: schemaDeclType(schema, false, 'selfType'), environment: 'full' });
  return program.evaluate({ self: toCelValue(object, schema) });
}

describe('CEL optional types', () => {
  it('refuses the syntax in the 1.27-compatible environment, in kube-apiserver 1.28\'s words', () => {
    expect(compileError('self.?obj == optional.none()', 'compatible')).toBe("compilation failed: ERROR: <input>:1:5: unsupported syntax '.?'\n | self.?obj == optional.none()\n | ....^");
    expect(compileError("self.m[?'k'].hasValue()", 'compatible')).toBe("compilation failed: ERROR: <input>:1:7: unsupported syntax '[?'\n | self.m[?'k'].hasValue()\n | ......^");
    expect(compileError('[?optional.none(), 1] == [1]', 'compatible')).toBe("compilation failed: ERROR: <input>:1:2: unsupported syntax '?'\n | [?optional.none(), 1] == [1]\n | .^");
    expect(compileError("{'a': 1, ?'k': optional.none()} == {}", 'compatible')).toContain("ERROR: <input>:1:10: unsupported syntax '?'");
    // without the library, optional.of is a selection on an undeclared name; errors in source order
    const undeclared = compileError('optional.of(1).optMap(x, x) == optional.of(1)', 'compatible');
    expect(undeclared.split('\n').filter((line) => line.startsWith('ERROR') || line.startsWith('compilation')).map((line) => line.replace(/^.*<input>:/, ''))).toEqual([
      "1:1: undeclared reference to 'optional' (in container '')",
      "1:12: undeclared reference to 'of' (in container '')",
      "1:22: undeclared reference to 'optMap' (in container '')",
      "1:23: undeclared reference to 'x' (in container '')",
      "1:26: undeclared reference to 'x' (in container '')",
      "1:32: undeclared reference to 'optional' (in container '')",
      "1:43: undeclared reference to 'of' (in container '')",
    ]);
  });

  it('has no Quantity library in the compatible environment, as kube-apiserver 1.28', () => {
    expect(compileError("quantity('1Gi').isGreaterThan(quantity('1Mi'))", 'compatible').split('\n').filter((line) => line.includes('ERROR'))).toEqual([
      "compilation failed: ERROR: <input>:1:9: undeclared reference to 'quantity' (in container '')",
      "ERROR: <input>:1:30: undeclared reference to 'isGreaterThan' (in container '')",
      "ERROR: <input>:1:39: undeclared reference to 'quantity' (in container '')",
    ]);
  });

  it('leaves question marks that are no optional syntax alone', () => {
    expect(markOptionalSyntax("self.l[0] == 'a.?b' ? [1] : {'k': [2]}").marks).toBeNull();
    expect(markOptionalSyntax('x in [?y]').marks?.elements.size).toBe(1);
    expect(compileError("self.obj.field == '[?x]' ? true : self.l.exists(e, e in ['a'])", 'compatible')).toBe('');
  });

  it('types optionals in the full environment', () => {
    expect(compileError('self.?obj.?field == optional.of(1)', 'full')).toContain("found no matching overload for '_==_' applied to '(optional_type(string), optional_type(int))'");
    expect(compileError('[?1] == [1]', 'full')).toContain("expected type 'optional_type(int)' but found 'int'");
    expect(compileError('self.?obj.field.orValue(1) == 1', 'full')).toContain("found no matching overload for 'orValue' applied to 'optional_type(string).(int)'");
    expect(compileError("self.?obj.n.orValue(0) + self.m[?'k'].orValue(0) > 0", 'full')).toBe('');
  });

  it('evaluates selections, indexes, literals and the library', () => {
    expect(evaluate("self.?obj.field.orValue('') == 'a' && !self.?obj.?n.hasValue()")).toBe(true);
    expect(evaluate("self.m[?'k'].value() == 1 && self.m[?'x'].orValue(7) == 7 && self.l[?1] == optional.none()")).toBe(true);
    expect(evaluate('[?optional.none(), ?optional.of(2), 3] == [2, 3]')).toBe(true);
    expect(evaluate("{?'a': optional.of(1), ?'b': optional.none(), 'c': 3} == {'a': 1, 'c': 3}")).toBe(true);
    expect(evaluate("self.?obj.?field.optMap(f, f + 'b') == optional.of('ab')")).toBe(true);
    expect(evaluate('optional.ofNonZeroValue(0).or(optional.of(2)).value() == 2')).toBe(true);
    expect(() => evaluate('optional.none().value() == 1')).toThrow('optional.none() dereference');
  });
});
