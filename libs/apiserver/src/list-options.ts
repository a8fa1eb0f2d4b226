// ListOptions: the query parameters of list and watch, parsed and validated as
// k8s.io/apimachinery/pkg/apis/meta/internalversion/validation does (422 on ListOptions).
import { badRequest, field, FieldError, goQuote, invalid, tooLargeResourceVersion, unclassifiedError } from '@plinth/machinery';
import { queryBool } from './request-info';

export type ResourceVersionMatch = '' | 'Exact' | 'NotOlderThan';

export interface ListOptions {
  labelSelector: string;
  fieldSelector: string;
  resourceVersion: string;
  resourceVersionMatch: ResourceVersionMatch;
  limit: number;
  continue: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  timeoutSeconds: number | undefined;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

// parseInt64 is strconv.ParseInt(value, 10, 64), with which the parameter codec converts an
// integer query parameter; its error is the 400's message, as kube-apiserver answers it.
export function parseInt64(value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n < int64Min || n > int64Max) throw badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: value out of range`);
  return Number(n);
}

// integer reads an int64 query parameter: absent is undefined, anything else (even empty) must
// parse.
export function integer(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  return value === null ? undefined : parseInt64(value);
}

export function parseListOptions(query: URLSearchParams, watch: boolean, watchListEnabled: boolean): ListOptions {
  const sendInitialEventsRaw = query.get('sendInitialEvents');
  const options: ListOptions = {
    labelSelector: query.get('labelSelector') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: (query.get('resourceVersionMatch') ?? '') as ResourceVersionMatch,
    limit: Math.max(0, integer(query, 'limit') ?? 0),
    continue: query.get('continue') ?? '',
    watch,
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks'),
    sendInitialEvents: sendInitialEventsRaw === null ? undefined : queryBool(query, 'sendInitialEvents'),
    timeoutSeconds: integer(query, 'timeoutSeconds'),
  };
  const errs = validateListOptions(options, watchListEnabled);
  if (errs.length > 0) throw invalid({ group: 'meta.platform.io', kind: 'ListOptions' }, '', errs);
  return options;
}

export function validateListOptions(options: ListOptions, watchListEnabled: boolean): FieldError[] {
  return options.watch ? validateWatchOptions(options, watchListEnabled) : validateListOnlyOptions(options);
}

function validateListOnlyOptions(options: ListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (match !== '') {
    if (options.resourceVersion === '') {
      errs.push(field.forbidden(field.newPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (options.continue !== '') {
      errs.push(field.forbidden(field.newPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden when continue is provided'));
    }
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push(field.notSupported(field.newPath('resourceVersionMatch'), match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && options.resourceVersion === '0') {
      errs.push(field.forbidden(field.newPath('resourceVersionMatch'), 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (options.sendInitialEvents !== undefined) {
    errs.push(field.forbidden(field.newPath('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  }
  return errs;
}

function validateWatchOptions(options: ListOptions, watchListEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (options.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') {
      errs.push(field.forbidden(field.newPath('resourceVersionMatch'), 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (!watchListEnabled) {
      errs.push(field.forbidden(field.newPath('sendInitialEvents'), 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
  }
  if (match !== '') {
    if (options.sendInitialEvents === undefined) {
      errs.push(field.forbidden(field.newPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== 'NotOlderThan') {
      errs.push(field.notSupported(field.newPath('resourceVersionMatch'), match, ['NotOlderThan']));
    }
    if (options.continue !== '') {
      errs.push(field.forbidden(field.newPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden when continue is provided'));
    }
  }
  return errs;
}

// parseResourceVersion reads a resourceVersion the store understands: a non-negative integer
// (strconv.ParseUint(value, 10, 64)). Storage refuses any other as an Invalid storage error,
// which kube-apiserver answers as a 500 without a reason, or, for a paged list, as a 400.
export function parseResourceVersion(value: string, paged = false): number {
  if (value === '') return 0;
  const syntax = /^\d+$/.test(value);
  if (!syntax || BigInt(value) >= 2n ** 64n) {
    const message = `resourceVersion: Invalid value: ${goQuote(value)}: strconv.ParseUint: parsing ${goQuote(value)}: ${syntax ? 'value out of range' : 'invalid syntax'}`;
    throw paged ? badRequest(`invalid resource version: ${message}`) : unclassifiedError(message);
  }
  return Number(value);
}

// assertReachable refuses a read at a revision the watch cache, once ready, did not reach in time:
// kube-apiserver's 504 "Too large resource version" (storage serves a cache that lags this
// server's own writes, or is not ready yet).
export function assertReachable(requested: number, cacheRevision: number): void {
  if (cacheRevision > 0 && requested > cacheRevision) throw tooLargeResourceVersion(requested, cacheRevision);
}
