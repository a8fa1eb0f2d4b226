// goPodTemplateSpec is Go's %#v of a core.PodTemplateSpec, the bad value Kubernetes prints when
// a Job's template may not change. Structs held by value and slices print field by field;
// a pointer prints as its type and an address (only whether it is nil is a fact); a
// *metav1.Time prints through time.Time's GoString (<nil> when nil).
import { GoLiteral, goQuote } from '@plinth/machinery';
import { goIntOrStringText, goStringMapText, goTimeText } from './go-values';
import { goPodTemplateStructs, goStringTypes } from './go-pod-template-types';
import { goQuantityText } from './go-quantity';

// goAddress stands for the heap address fmt prints for a non-nil pointer.
const goAddress = '0xc000010000';
const zeroTime = 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function goPointerText(type: string, value: unknown): string {
  if (type === '*v1.Time') return typeof value === 'string' ? goTimeText(value, 'time.Local') : '<nil>';
  return isSet(value) ? `(${type})(${goAddress})` : `(${type})(nil)`;
}

function goSliceText(type: string, value: unknown): string {
  if (!Array.isArray(value)) return `${type}(nil)`;
  const element = type.slice(2);
  return `${type}{${value.map((v) => goValueText(element, v)).join(', ')}}`;
}

function goResourceListText(type: string, value: unknown): string {
  if (!isObject(value)) return `${type}(nil)`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `${type}{${keys.map((k) => `${goQuote(k)}:${goQuantityText(value[k])}`).join(', ')}}`;
}

function goStructText(type: string, value: unknown): string {
  const fields = goPodTemplateStructs[type];
  const object = isObject(value) ? value : {};
  // An embedded struct reads its fields from the same JSON object.
  return `${type}{${fields.map(([name, json, fieldType]) => `${name}:${goValueText(fieldType, json === '' ? object : object[json])}`).join(', ')}}`;
}

function goNumberText(value: unknown): string {
  return typeof value === 'number' ? String(value) : '0';
}

// goValueText prints one value of the named Go type, as %#v prints it inside a struct.
export function goValueText(type: string, value: unknown): string {
  if (type.startsWith('*')) return goPointerText(type, value);
  if (type.startsWith('[]')) return goSliceText(type, value);
  if (type === 'map[string]string') return goStringMapText(isObject(value) ? (value as Record<string, string>) : null);
  if (type === 'core.ResourceList') return goResourceListText(type, value);
  if (type === 'string' || goStringTypes.has(type)) return goQuote(typeof value === 'string' ? value : '');
  if (type === 'bool') return value === true ? 'true' : 'false';
  if (type === 'int32' || type === 'int64' || type === 'int') return goNumberText(value);
  if (type === 'v1.Time') return typeof value === 'string' ? goTimeText(value, 'time.Local') : zeroTime;
  if (type === 'intstr.IntOrString') return goIntOrStringText(value as number | string | undefined);
  if (type in goPodTemplateStructs) return goStructText(type, value);
  throw new Error(`goValueText: no rendering for Go type ${type}`);
}

// goPodTemplateSpec renders a v1 PodTemplateSpec (as stored) as its internal core type.
export function goPodTemplateSpec(template: unknown): GoLiteral {
  return new GoLiteral(goValueText('core.PodTemplateSpec', template));
}
