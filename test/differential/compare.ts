// compare.ts compares an expected answer with an actual one field by field and says where they
// differ, as JSON paths: `$.json.metadata.labels.a: expected "x", actual "y"`.
import { Answer } from './scenario';

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function diffValues(expected: unknown, actual: unknown, path = '$', out: string[] = []): string[] {
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const k of keys) diffValues(expected[k], actual[k], `${path}.${k}`, out);
  } else if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) out.push(`${path}: expected ${expected.length} items, actual ${actual.length}`);
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) diffValues(expected[i], actual[i], `${path}[${i}]`, out);
  } else if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    out.push(`${path}: expected ${show(expected)}, actual ${show(actual)}`);
  }
  return out;
}

// diffAnswers compares what a step must answer with what it answered; with statusOnly only the
// status code counts.
export function diffAnswers(expected: Answer, actual: Answer, statusOnly = false): string[] {
  if (statusOnly) return expected.status === actual.status ? [] : [`$.status: expected ${expected.status}, actual ${actual.status}`];
  return diffValues(expected, actual);
}
