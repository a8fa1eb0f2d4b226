// Estimated costs as Kubernetes 1.28 computes them (apiextensions-apiserver's
// TestCostEstimation): each case is a schema generator, a rule, the estimate without bounds
// (sizes from the 3 MiB request limit) and with maxItems, maxProperties or maxLength set.
import { compileExpression } from '../program';
import { JSONSchemaProps } from '../schema';
import { schemaDeclType } from './decl-type';

type Generator = (max?: number) => JSONSchemaProps;

const leaf = (type: string): JSONSchemaProps => {
  if (type === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
  if (['duration', 'date', 'date-time'].includes(type)) return { type: 'string', format: type };
  return { type };
};
const bound = (key: string, max?: number) => (max === undefined ? {} : { [key]: max });
const array = (type: string): Generator => (max) => ({ type: 'array', items: leaf(type), ...bound('maxItems', max) });
const arrayOfArrays = (type: string): Generator => (max) => ({ type: 'array', items: { type: 'array', items: leaf(type) }, ...bound('maxItems', max) });
const objectItem: JSONSchemaProps = { type: 'object', properties: { required: { type: 'string' }, optional: { type: 'string' } }, required: ['required'] };
const objectArray: Generator = (max) => ({ type: 'array', items: objectItem, ...bound('maxItems', max) });
const map = (type: string): Generator => (max) => ({ type: 'object', additionalProperties: leaf(type), ...bound('maxProperties', max) });
const mapOfItems = (item: JSONSchemaProps): Generator => (max) => ({ type: 'object', additionalProperties: item, ...bound('maxProperties', max) });
const mapArray = (type: string): Generator => (max) => ({ type: 'array', items: { type: 'object', additionalProperties: leaf(type) }, ...bound('maxItems', max) });
const string: Generator = (max) => ({ type: 'string', ...bound('maxLength', max) });
const bytes: Generator = (max) => ({ type: 'string', format: 'byte', ...bound('maxLength', max) });
const nestedSpec: Generator = (max) => ({ type: 'object', additionalProperties: { type: 'string', ...bound('maxLength', max) }, ...bound('maxProperties', max) });
const replaceObject: Generator = (max) => ({
  type: 'object',
  properties: { str: { type: 'string', ...bound('maxLength', max) }, before: { type: 'string', maxLength: 2 }, after: { type: 'string', maxLength: 4 } },
});
const splitObject: Generator = (max) => ({ type: 'object', properties: { str: { type: 'string', ...bound('maxLength', max) }, separator: { type: 'string', ...bound('maxLength', max) } } });
const stringArray: Generator = (max) => ({ type: 'array', items: { type: 'string', ...bound('maxLength', max) }, ...bound('maxItems', max) });

const cases: { name: string; schema: Generator; rule: string; calc: number; set: number; max: number }[] = [
  { name: 'number array with all', schema: array('number'), rule: 'self.all(x, true)', calc: 4718591, max: 10, set: 32 },
  { name: 'string array with all', schema: array('string'), rule: 'self.all(x, true)', calc: 3145727, max: 20, set: 62 },
  { name: 'boolean array with all', schema: array('boolean'), rule: 'self.all(x, true)', calc: 1887437, max: 5, set: 17 },
  { name: 'array of number arrays with all', schema: arrayOfArrays('number'), rule: 'self.all(x, true)', calc: 3145727, max: 100, set: 302 },
  { name: 'array of objects with all', schema: objectArray, rule: 'self.all(x, true)', calc: 555128, max: 50, set: 152 },
  { name: 'map of numbers with all', schema: map('number'), rule: 'self.all(x, true)', calc: 1348169, max: 10, set: 32 },
  { name: 'map of strings with all', schema: map('string'), rule: 'self.all(x, true)', calc: 1179647, max: 3, set: 11 },
  { name: 'map of booleans with all', schema: map('boolean'), rule: 'self.all(x, true)', calc: 943718, max: 100, set: 302 },
  { name: 'string with contains', schema: string, rule: "self.contains('test')", calc: 314574, max: 10, set: 5 },
  { name: 'string with startsWith', schema: string, rule: "self.startsWith('test')", calc: 2, max: 15, set: 2 },
  { name: 'string with endsWith', schema: string, rule: "self.endsWith('test')", calc: 2, max: 30, set: 2 },
  { name: 'concat string', schema: string, rule: 'size(self + "hello") > size("hello")', calc: 314578, max: 4, set: 7 },
  { name: 'index of array with numbers', schema: array('number'), rule: 'self[1] == 0.0', calc: 2, max: 5000, set: 2 },
  { name: 'index of array with strings', schema: array('string'), rule: 'self[1] == self[1]', calc: 314577, max: 8, set: 314577 },
  { name: 'O(n^2) loop with numbers', schema: array('number'), rule: 'self.all(x, self.all(y, true))', calc: Infinity, max: 10, set: 352 },
  { name: 'O(n^3) loop with numbers', schema: array('number'), rule: 'self.all(x, self.all(y, self.all(z, true)))', calc: Infinity, max: 10, set: 3552 },
  { name: 'regex matches simple', schema: string, rule: 'self.matches("x")', calc: 314574, max: 50, set: 22 },
  { name: 'regex matches empty string', schema: string, rule: '"".matches("(((((((((())))))))))[0-9]")', calc: 7, max: 10, set: 7 },
  { name: 'regex matches empty regex', schema: string, rule: 'self.matches("")', calc: 1, max: 100, set: 1 },
  { name: 'map of strings with value length', schema: nestedSpec, rule: 'self.all(x, x.contains(self[x]))', calc: 2752507, max: 10, set: 72 },
  { name: 'set array maxLength to zero', schema: array('number'), rule: 'self[3] == 0.0', calc: 2, max: 0, set: 2 },
  { name: 'set map maxLength to zero', schema: map('number'), rule: 'self["x"] == 0.0', calc: 2, max: 0, set: 2 },
  { name: 'set string maxLength to zero', schema: string, rule: 'self == "x"', calc: 2, max: 0, set: 1 },
  { name: 'set bytes maxLength to zero', schema: bytes, rule: 'self == b"x"', calc: 2, max: 0, set: 1 },
  { name: 'set maxLength greater than estimated maxLength', schema: array('number'), rule: 'self.all(x, x == 0.0)', calc: 6291454, max: 3 * 1024 * 2048, set: 25165826 },
  { name: 'int-or-string array with all', schema: array('int-or-string'), rule: 'self.all(x, true)', calc: 4718591, max: 10, set: 32 },
  { name: 'index of array with int-or-strings', schema: array('int-or-string'), rule: 'self[0] == 5', calc: 3, max: 10, set: 3 },
  { name: 'index of array with booleans', schema: array('boolean'), rule: 'self[0] == false', calc: 2, max: 25, set: 2 },
  { name: 'index of array of objects', schema: objectArray, rule: 'self[0] == null', calc: 2, max: 422, set: 2 },
  { name: 'index of array of array of numbers', schema: arrayOfArrays('number'), rule: 'self[0][0] == -1.0', calc: 3, max: 51, set: 3 },
  { name: 'array of number maps with all', schema: mapArray('number'), rule: 'self.all(x, x.y == 25.2)', calc: 6291452, max: 12, set: 74 },
  { name: 'index of array of number maps', schema: mapArray('number'), rule: 'self[0].x > 2.0', calc: 4, max: 3000, set: 4 },
  { name: 'duration array with all', schema: array('duration'), rule: 'self.all(x, true)', calc: 2359295, max: 5, set: 17 },
  { name: 'index of duration array', schema: array('duration'), rule: 'self[0].getHours() == 2', calc: 4, max: 525, set: 4 },
  { name: 'date array with all', schema: array('date'), rule: 'self.all(x, true)', calc: 725936, max: 15, set: 47 },
  { name: 'index of date array', schema: array('date'), rule: 'self[2].getDayOfMonth() == 13', calc: 4, max: 42, set: 4 },
  { name: 'date-time array with all', schema: array('date-time'), rule: 'self.all(x, true)', calc: 428963, max: 25, set: 77 },
  { name: 'index of date-time array', schema: array('date-time'), rule: 'self[2].getMinutes() == 45', calc: 4, max: 99, set: 4 },
  { name: 'map of int-or-strings with all', schema: map('int-or-string'), rule: 'self.all(x, true)', calc: 1348169, max: 15, set: 47 },
  { name: 'map of objects with all', schema: mapOfItems(objectItem), rule: 'self.all(x, true)', calc: 428963, max: 20, set: 62 },
  { name: 'map of number maps with all', schema: mapOfItems({ type: 'object', additionalProperties: { type: 'number' } }), rule: 'self.all(x, true)', calc: 1179647, max: 10, set: 32 },
  { name: 'map of number arrays with all', schema: mapOfItems({ type: 'array', items: { type: 'number' } }), rule: 'self.all(x, true)', calc: 1179647, max: 25, set: 77 },
  { name: 'map of durations with all', schema: map('duration'), rule: 'self.all(x, true)', calc: 1048577, max: 5, set: 17 },
  { name: 'map of dates with all', schema: map('date'), rule: 'self.all(x, true)', calc: 524288, max: 10, set: 32 },
  { name: 'map of date-times with all', schema: map('date-time'), rule: 'self.all(x, true)', calc: 349526, max: 25, set: 77 },
  { name: 'extended library regex find', schema: string, rule: "self.find('[0-9]+') == ''", calc: 629147, max: 10, set: 11 },
  { name: 'extended library isSorted', schema: stringArray, rule: 'self.isSorted() == true', calc: 329854432052, max: 10, set: 52 },
  { name: 'extended library join', schema: stringArray, rule: "self.join(' ') == 'aa bb'", calc: 329853068905, max: 10, set: 43 },
  { name: 'extended library replace', schema: replaceObject, rule: "self.str.replace(self.before, self.after) == 'does not matter'", calc: 629154, max: 4, set: 12 },
  { name: 'extended library split', schema: splitObject, rule: 'self.str.split(self.separator) == []', calc: 629160, max: 10, set: 22 },
  { name: 'extended library lowerAscii', schema: string, rule: "self.lowerAscii() == 'lower!'", calc: 314575, max: 10, set: 6 },
  { name: 'check cost of size call', schema: map('integer'), rule: 'oldSelf.size() == self.size()', calc: 5, max: 10, set: 5 },
  { name: 'check cost of timestamp comparison', schema: map('date-time'), rule: 'self["a"] == self["b"]', calc: 8, max: 7, set: 8 },
  { name: 'check cost of duration comparison', schema: map('duration'), rule: 'self["c"] == self["d"]', calc: 8, max: 42, set: 8 },
];

const estimate = (schema: JSONSchemaProps, rule: string) =>
  compileExpression(rule, ['self', 'oldSelf'], { self: schemaDeclType(schema, false, 'selfType0'), environment: 'compatible', output: 'bool' }).estimate().max;

describe('estimated rule costs (Kubernetes TestCostEstimation)', () => {
  it.each(cases)('$name: $rule', (c) => {
    // Infinity: Kubernetes only asserts that the estimate exceeds the per-call limit.
    if (c.calc === Infinity) expect(estimate(c.schema(), c.rule)).toBeGreaterThan(1_000_000);
    else expect(estimate(c.schema(), c.rule)).toBe(c.calc);
    expect(estimate(c.schema(c.max), c.rule)).toBe(c.set);
  });
});
