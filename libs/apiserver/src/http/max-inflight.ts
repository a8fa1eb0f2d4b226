// MaxInflightLimit is kube-apiserver's max-in-flight filter (server/filters/maxinflight.go): at
// most --max-requests-inflight read-only and --max-mutating-requests-inflight mutating requests
// are served at once; the next one is refused at once with 429 and `Retry-After: 1`, as plain
// text, exactly as kube-apiserver's http.Error writes it. Long-running requests (watches) and
// health checks take no seat, and system:masters is never refused: the cluster's
// administrators keep an answer under any load.
import { ServerResponse } from 'node:http';
import { SystemPrivilegedGroup, UserInfo } from '@plinth/rbac';
import { RequestInfo } from '../request-info';

const readOnlyVerbs = new Set(['get', 'list', 'watch']);
const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const healthPaths = new Set(['healthz', 'livez', 'readyz']);

export const tooManyRequestsMessage = 'Too many requests, please try again later.';

// isLongRunning is kube-apiserver's BasicLongRunningRequestCheck with its default verbs and
// subresources.
export function isLongRunning(info: RequestInfo): boolean {
  if (longRunningVerbs.has(info.verb)) return true;
  return info.isResourceRequest && longRunningSubresources.has(info.subresource);
}

export function isHealthCheck(info: RequestInfo): boolean {
  return !info.isResourceRequest && healthPaths.has(info.parts[0] ?? '');
}

export class MaxInflightLimit {
  private readOnly = 0;
  private mutating = 0;

  // A limit of 0 leaves that kind of request unbounded.
  constructor(
    private readonly maxReadOnly: number,
    private readonly maxMutating: number,
  ) {}

  get readOnlyInFlight(): number {
    return this.readOnly;
  }

  get mutatingInFlight(): number {
    return this.mutating;
  }

  // admit takes a seat for the request and returns the function that gives it back, or null
  // when the request must be refused.
  admit(info: RequestInfo, user: UserInfo): (() => void) | null {
    if (isLongRunning(info) || isHealthCheck(info)) return noSeat;
    const mutating = !readOnlyVerbs.has(info.verb);
    const limit = mutating ? this.maxMutating : this.maxReadOnly;
    if (limit === 0) return noSeat;
    const taken = mutating ? this.mutating : this.readOnly;
    if (taken >= limit) return user.groups.includes(SystemPrivilegedGroup) ? noSeat : null;
    if (mutating) this.mutating++;
    else this.readOnly++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (mutating) this.mutating--;
      else this.readOnly--;
    };
  }
}

const noSeat = (): void => undefined;

// writeTooManyRequests is kube-apiserver's tooManyRequests: http.Error's plain text, with the
// Cache-Control its outer WithCacheControl filter has set.
export function writeTooManyRequests(res: ServerResponse): void {
  res.statusCode = 429;
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Retry-After', '1');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${tooManyRequestsMessage}\n`);
}
