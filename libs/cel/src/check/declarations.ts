// The functions a rule may call, as cel-go's standard declarations, ext.Strings version 0 and
// Kubernetes' list, regex and URL libraries declare them: each overload has cel-go's id (the
// cost estimator keys on it), its parameters (the receiver first for a member function) and its
// result. Environment says which of Kubernetes 1.28's two environments a rule is checked in:
// `compatible` (1.27's, used when a CRD is written) or `full` (for rules already stored), which
// adds cross-type numeric comparisons and cel-go's optional types.
import { BOOL, BYTES, CelType, DOUBLE, DURATION, DYN, INT, listOf, mapOf, optionalOf, param, STRING, TIMESTAMP, typeOf, UINT } from './types';

export type Environment = 'compatible' | 'full';

export interface Overload {
  id: string;
  member: boolean;
  params: CelType[];
  result: CelType;
}

const A = param('A');
const B = param('B');
const URL: CelType = { kind: 'opaque', name: 'kubernetes.URL' };

const global = (id: string, params: CelType[], result: CelType): Overload => ({ id, member: false, params, result });
const member = (id: string, params: CelType[], result: CelType): Overload => ({ id, member: true, params, result });

const comparables: [string, CelType][] = [
  ['bool', BOOL],
  ['int64', INT],
  ['uint64', UINT],
  ['double', DOUBLE],
  ['string', STRING],
  ['bytes', BYTES],
  ['timestamp', TIMESTAMP],
  ['duration', DURATION],
];
const crossNumeric: [string, CelType, string, CelType][] = [
  ['int64', INT, 'uint64', UINT],
  ['int64', INT, 'double', DOUBLE],
  ['uint64', UINT, 'int64', INT],
  ['uint64', UINT, 'double', DOUBLE],
  ['double', DOUBLE, 'int64', INT],
  ['double', DOUBLE, 'uint64', UINT],
];

function comparison(name: string, op: string, env: Environment): Overload[] {
  const same = comparables.map(([n, t]) => global(`${name}_${n}`, [t, t], BOOL));
  if (env === 'compatible') return same;
  return [...same, ...crossNumeric.map(([n1, t1, n2, t2]) => global(`${name}_${n1}_${n2}`, [t1, t2], BOOL))];
}

const numeric: [string, CelType][] = [
  ['int64', INT],
  ['uint64', UINT],
  ['double', DOUBLE],
];

const timeAccessors = ['getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];
const durationAccessors = ['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];
const sortable: [string, CelType][] = [...comparables];
const summable: [string, CelType][] = [['int', INT], ['uint', UINT], ['double', DOUBLE], ['duration', DURATION]];

function standard(env: Environment): Record<string, Overload[]> {
  const decls: Record<string, Overload[]> = {
    '!_': [global('logical_not', [BOOL], BOOL)],
    '-_': [global('negate_int64', [INT], INT), global('negate_double', [DOUBLE], DOUBLE)],
    '_&&_': [global('logical_and', [BOOL, BOOL], BOOL)],
    '_||_': [global('logical_or', [BOOL, BOOL], BOOL)],
    '@not_strictly_false': [global('not_strictly_false', [BOOL], BOOL)],
    '_?_:_': [global('conditional', [BOOL, A, A], A)],
    '_==_': [global('equals', [A, A], BOOL)],
    '_!=_': [global('not_equals', [A, A], BOOL)],
    '_<_': comparison('less', '<', env),
    '_<=_': comparison('less_equals', '<=', env),
    '_>_': comparison('greater', '>', env),
    '_>=_': comparison('greater_equals', '>=', env),
    '_+_': [
      ...numeric.map(([n, t]) => global(`add_${n}`, [t, t], t)),
      global('add_string', [STRING, STRING], STRING),
      global('add_bytes', [BYTES, BYTES], BYTES),
      global('add_list', [listOf(A), listOf(A)], listOf(A)),
      global('add_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP),
      global('add_duration_timestamp', [DURATION, TIMESTAMP], TIMESTAMP),
      global('add_duration_duration', [DURATION, DURATION], DURATION),
    ],
    '_-_': [
      ...numeric.map(([n, t]) => global(`subtract_${n}`, [t, t], t)),
      global('subtract_timestamp_timestamp', [TIMESTAMP, TIMESTAMP], DURATION),
      global('subtract_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP),
      global('subtract_duration_duration', [DURATION, DURATION], DURATION),
    ],
    '_*_': numeric.map(([n, t]) => global(`multiply_${n}`, [t, t], t)),
    '_/_': numeric.map(([n, t]) => global(`divide_${n}`, [t, t], t)),
    '_%_': [global('modulo_int64', [INT, INT], INT), global('modulo_uint64', [UINT, UINT], UINT)],
    '_[_]': [global('index_list', [listOf(A), INT], A), global('index_map', [mapOf(A, B), A], B)],
    '@in': [global('in_list', [A, listOf(A)], BOOL), global('in_map', [A, mapOf(A, B)], BOOL)],
    size: [
      global('size_string', [STRING], INT),
      global('size_bytes', [BYTES], INT),
      global('size_list', [listOf(A)], INT),
      global('size_map', [mapOf(A, B)], INT),
      member('string_size', [STRING], INT),
      member('bytes_size', [BYTES], INT),
      member('list_size', [listOf(A)], INT),
      member('map_size', [mapOf(A, B)], INT),
    ],
    int: [
      global('int64_to_int64', [INT], INT),
      global('uint64_to_int64', [UINT], INT),
      global('double_to_int64', [DOUBLE], INT),
      global('string_to_int64', [STRING], INT),
      global('timestamp_to_int64', [TIMESTAMP], INT),
    ],
    uint: [global('uint64_to_uint64', [UINT], UINT), global('int64_to_uint64', [INT], UINT), global('double_to_uint64', [DOUBLE], UINT), global('string_to_uint64', [STRING], UINT)],
    double: [global('double_to_double', [DOUBLE], DOUBLE), global('int64_to_double', [INT], DOUBLE), global('uint64_to_double', [UINT], DOUBLE), global('string_to_double', [STRING], DOUBLE)],
    string: [
      global('string_to_string', [STRING], STRING),
      global('int64_to_string', [INT], STRING),
      global('uint64_to_string', [UINT], STRING),
      global('double_to_string', [DOUBLE], STRING),
      global('bool_to_string', [BOOL], STRING),
      global('bytes_to_string', [BYTES], STRING),
      global('timestamp_to_string', [TIMESTAMP], STRING),
      global('duration_to_string', [DURATION], STRING),
    ],
    bytes: [global('bytes_to_bytes', [BYTES], BYTES), global('string_to_bytes', [STRING], BYTES)],
    bool: [global('bool_to_bool', [BOOL], BOOL), global('string_to_bool', [STRING], BOOL)],
    timestamp: [global('timestamp_to_timestamp', [TIMESTAMP], TIMESTAMP), global('string_to_timestamp', [STRING], TIMESTAMP), global('int64_to_timestamp', [INT], TIMESTAMP)],
    duration: [global('duration_to_duration', [DURATION], DURATION), global('string_to_duration', [STRING], DURATION), global('int64_to_duration', [INT], DURATION)],
    type: [global('type', [A], typeOf(A))],
    dyn: [global('to_dyn', [A], DYN)],
    contains: [member('contains_string', [STRING, STRING], BOOL)],
    endsWith: [member('ends_with_string', [STRING, STRING], BOOL)],
    startsWith: [member('starts_with_string', [STRING, STRING], BOOL)],
    matches: [global('matches', [STRING, STRING], BOOL), member('matches_string', [STRING, STRING], BOOL)],
  };
  for (const name of timeAccessors) {
    const id = `timestamp_to_${name.slice(3).toLowerCase()}`;
    decls[name] = [member(id, [TIMESTAMP], INT), member(`${id}_with_tz`, [TIMESTAMP, STRING], INT)];
  }
  for (const name of durationAccessors) decls[name].push(member(`duration_to_${name.slice(3).toLowerCase()}`, [DURATION], INT));
  return decls;
}

// extStrings is cel-go's ext.Strings at version 0 (Kubernetes 1.28 has not moved on: no
// format or quote; join is there from the start).
const extStrings: Record<string, Overload[]> = {
  charAt: [member('string_char_at_int', [STRING, INT], STRING)],
  indexOf: [member('string_index_of_string', [STRING, STRING], INT), member('string_index_of_string_int', [STRING, STRING, INT], INT)],
  lastIndexOf: [member('string_last_index_of_string', [STRING, STRING], INT), member('string_last_index_of_string_int', [STRING, STRING, INT], INT)],
  lowerAscii: [member('string_lower_ascii', [STRING], STRING)],
  replace: [member('string_replace_string_string', [STRING, STRING, STRING], STRING), member('string_replace_string_string_int', [STRING, STRING, STRING, INT], STRING)],
  split: [member('string_split_string', [STRING, STRING], listOf(STRING)), member('string_split_string_int', [STRING, STRING, INT], listOf(STRING))],
  substring: [member('string_substring_int', [STRING, INT], STRING), member('string_substring_int_int', [STRING, INT, INT], STRING)],
  trim: [member('string_trim', [STRING], STRING)],
  upperAscii: [member('string_upper_ascii', [STRING], STRING)],
  join: [member('list_join', [listOf(STRING)], STRING), member('list_join_string', [listOf(STRING), STRING], STRING)],
};

// kubernetesLists, kubernetesRegex and kubernetesUrls are apiserver/pkg/cel/library's.
const kubernetesLists: Record<string, Overload[]> = {
  isSorted: sortable.map(([n, t]) => member(`list_${n}_is_sorted_bool`, [listOf(t)], BOOL)),
  sum: summable.map(([n, t]) => member(`list_${n}_sum_${n}`, [listOf(t)], t)),
  max: sortable.map(([n, t]) => member(`list_${n}_max_${n}`, [listOf(t)], t)),
  min: sortable.map(([n, t]) => member(`list_${n}_min_${n}`, [listOf(t)], t)),
  indexOf: [member('list_a_index_of_int', [listOf(A), A], INT)],
  lastIndexOf: [member('list_a_last_index_of_int', [listOf(A), A], INT)],
};

const kubernetesRegex: Record<string, Overload[]> = {
  find: [member('string_find_string', [STRING, STRING], STRING)],
  findAll: [member('string_find_all_string', [STRING, STRING], listOf(STRING)), member('string_find_all_string_int', [STRING, STRING, INT], listOf(STRING))],
};

const kubernetesUrls: Record<string, Overload[]> = {
  url: [global('string_to_url', [STRING], URL)],
  isURL: [global('is_url_string', [STRING], BOOL)],
  getScheme: [member('url_get_scheme', [URL], STRING)],
  getHost: [member('url_get_host', [URL], STRING)],
  getHostname: [member('url_get_hostname', [URL], STRING)],
  getPort: [member('url_get_port', [URL], STRING)],
  getEscapedPath: [member('url_get_escaped_path', [URL], STRING)],
  getQuery: [member('url_get_query', [URL], mapOf(STRING, listOf(STRING)))],
};

// Kubernetes 1.28 adds library.Quantity (quantity, isQuantity, ...) together with the optional
// types, to the full environment only: no CRD write can add a rule that calls it (kube-apiserver
// answers `undeclared reference to 'quantity'`, as here). Plinth does not have it, so a rule
// already stored that calls it does not compile and fails each validation.
//
// optionalTypes is cel-go's optional library (cel.OptionalTypes, version 0), in the full
// environment only; `_?._` is typed by the checker, and optMap expands as a macro.
const optionalTypes: Record<string, Overload[]> = {
  'optional.of': [global('optional_of', [A], optionalOf(A))],
  'optional.ofNonZeroValue': [global('optional_ofNonZeroValue', [A], optionalOf(A))],
  'optional.none': [global('optional_none', [], optionalOf(A))],
  hasValue: [member('optional_hasValue', [optionalOf(A)], BOOL)],
  value: [member('optional_value', [optionalOf(A)], A)],
  or: [member('optional_or_optional', [optionalOf(A), optionalOf(A)], optionalOf(A))],
  orValue: [member('optional_orValue_value', [optionalOf(A), A], A)],
  '_[?_]': [
    global('list_optindex_optional_int', [listOf(A), INT], optionalOf(A)),
    global('optional_list_optindex_optional_int', [optionalOf(listOf(A)), INT], optionalOf(A)),
    global('map_optindex_optional_value', [mapOf(A, B), A], optionalOf(B)),
    global('optional_map_optindex_optional_value', [optionalOf(mapOf(A, B)), A], optionalOf(B)),
  ],
  '_[_]': [global('optional_list_index_int', [optionalOf(listOf(A)), INT], optionalOf(A)), global('optional_map_index_value', [optionalOf(mapOf(A, B)), A], optionalOf(B))],
};

const declarationsByEnvironment = new Map<Environment, ReadonlyMap<string, Overload[]>>();

// declarations returns every function of an environment by name.
export function declarations(env: Environment): ReadonlyMap<string, Overload[]> {
  let decls = declarationsByEnvironment.get(env);
  if (!decls) {
    const merged = new Map<string, Overload[]>();
    for (const lib of [standard(env), extStrings, kubernetesLists, kubernetesRegex, kubernetesUrls, ...(env === 'full' ? [optionalTypes] : [])]) {
      for (const [name, overloads] of Object.entries(lib)) merged.set(name, [...(merged.get(name) ?? []), ...overloads]);
    }
    decls = merged;
    declarationsByEnvironment.set(env, decls);
  }
  return decls;
}

// typeIdentifiers are the type names an expression may use as values (`type(x) == int`).
export const typeIdentifiers: ReadonlyMap<string, CelType> = new Map<string, CelType>([
  ['int', typeOf(INT)],
  ['uint', typeOf(UINT)],
  ['double', typeOf(DOUBLE)],
  ['bool', typeOf(BOOL)],
  ['string', typeOf(STRING)],
  ['bytes', typeOf(BYTES)],
  ['null_type', typeOf({ kind: 'primitive', name: 'null_type' })],
  ['list', typeOf(listOf(DYN))],
  ['map', typeOf(mapOf(DYN, DYN))],
  ['type', typeOf(typeOf(DYN))],
  ['dyn', typeOf(DYN)],
  ['google.protobuf.Timestamp', typeOf(TIMESTAMP)],
  ['google.protobuf.Duration', typeOf(DURATION)],
]);
