import { Counter, Registry, serveMetrics, splitHostPort } from './index';

describe('serveMetrics', () => {
  it('serves the registry at /metrics and ok at /healthz, 404 elsewhere, until closed', async () => {
    const registry = new Registry();
    registry.register(new Counter({ name: 'served_total', help: 'Served.' })).inc(3);
    const endpoint = await serveMetrics(registry, '127.0.0.1:0');
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metrics = await fetch(`${endpoint.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await metrics.text()).toContain('served_total 3\n');
    expect(await (await fetch(`${endpoint.url}/healthz`)).text()).toBe('ok');
    const openMetrics = await fetch(`${endpoint.url}/metrics`, { headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    expect(openMetrics.headers.get('content-type')).toMatch(/^application\/openmetrics-text/);
    expect(await openMetrics.text()).toMatch(/served_total 3\n(.|\n)*# EOF\n$/);
    expect((await fetch(`${endpoint.url}/other`)).status).toBe(404);
    expect((await fetch(`${endpoint.url}/metrics`, { method: 'POST' })).status).toBe(404);
    await endpoint.close();
    await expect(fetch(`${endpoint.url}/metrics`)).rejects.toThrow();
  });

  it('refuses an address it cannot listen on', async () => {
    const taken = await serveMetrics(new Registry(), '127.0.0.1:0');
    try {
      await expect(serveMetrics(new Registry(), taken.url.replace('http://', ''))).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await taken.close();
    }
  });
});

describe('splitHostPort', () => {
  it('reads host:port, [v6]:port and :port as Go does', () => {
    expect(splitHostPort('0.0.0.0:10252')).toEqual({ host: '0.0.0.0', port: 10252 });
    expect(splitHostPort('[::1]:10252')).toEqual({ host: '::1', port: 10252 });
    expect(splitHostPort(':10252')).toEqual({ host: undefined, port: 10252 });
  });

  it('refuses an address without a port by name', () => {
    expect(() => splitHostPort('localhost')).toThrow('address "localhost": want host:port');
    expect(() => splitHostPort('localhost:http')).toThrow('want host:port');
    expect(() => splitHostPort('localhost:70000')).toThrow('want host:port');
  });
});
