// Health endpoints (/healthz, /livez, /readyz): named checks, ?verbose, ?exclude=<name>, and
// one path per check; 200 means healthy. The output is kube-apiserver's.

export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export interface HealthResult {
  code: number;
  body: string;
  // nosniff: the answer carries X-Content-Type-Options, as all but a passing single check's do.
  nosniff: boolean;
}

export async function runHealthChecks(endpoint: HealthEndpoint, checks: HealthCheck[], query: URLSearchParams, only?: string): Promise<HealthResult> {
  if (only !== undefined) {
    const check = checks.find((c) => c.name === only);
    if (!check) return { code: 404, body: '404 page not found\n', nosniff: true };
    try {
      await check.check();
      return { code: 200, body: 'ok', nosniff: false };
    } catch (err) {
      return { code: 500, body: `internal server error: ${(err as Error).message}\n`, nosniff: true };
    }
  }
  // Each exclude names one check, commas and all, as kube-apiserver reads it.
  const excluded = new Set(query.getAll('exclude'));
  const verbose = query.has('verbose');
  const lines: string[] = [];
  let failed = false;
  const unmatched = new Set(excluded);
  for (const check of checks) {
    if (excluded.has(check.name)) {
      unmatched.delete(check.name);
      lines.push(`[+]${check.name} excluded: ok`);
      continue;
    }
    try {
      await check.check();
      lines.push(`[+]${check.name} ok`);
    } catch {
      failed = true;
      lines.push(`[-]${check.name} failed: reason withheld`);
    }
  }
  if (unmatched.size > 0) {
    lines.push(`warn: some health checks cannot be excluded: no matches for ${[...unmatched].map((u) => `"${u}"`).join(',')}`);
  }
  if (failed) {
    lines.push(`${endpoint} check failed`);
    return { code: 500, body: `${lines.join('\n')}\n`, nosniff: true };
  }
  if (!verbose) return { code: 200, body: 'ok', nosniff: true };
  lines.push(`${endpoint} check passed`);
  return { code: 200, body: `${lines.join('\n')}\n`, nosniff: true };
}
