import { Registry } from '@plinth/metrics';
import { StorageError } from '@plinth/storage';
import { StorageLinkMetrics } from './metrics';

describe('StorageLinkMetrics', () => {
  it('measures each call by operation and outcome, passing its answer or error through', async () => {
    const registry = new Registry();
    const metrics = new StorageLinkMetrics(registry);
    await expect(metrics.measure('Get', async () => 'answer')).resolves.toBe('answer');
    await expect(metrics.measure('Get', async () => Promise.reject(StorageError.keyNotFound('/registry/pods/default/a')))).rejects.toBeInstanceOf(StorageError);
    await expect(metrics.measure('List', async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    const text = registry.expose();
    expect(text).toContain('# TYPE plinth_storage_request_duration_seconds histogram\n');
    expect(text).toMatch(/^plinth_storage_request_duration_seconds_count\{code="OK",operation="Get"\} 1$/m);
    expect(text).toMatch(/^plinth_storage_request_duration_seconds_count\{code="KeyNotFound",operation="Get"\} 1$/m);
    expect(text).toMatch(/^plinth_storage_request_duration_seconds_count\{code="Unknown",operation="List"\} 1$/m);
    expect(text).toContain('plinth_storage_request_duration_seconds_bucket{code="OK",operation="Get",le="0.005"} ');
  });

  it('counts the pending calls up and down and the refused ones, both 0 from the start', () => {
    const registry = new Registry();
    const metrics = new StorageLinkMetrics(registry);
    expect(registry.expose()).toMatch(/^plinth_storage_pending_calls 0$/m);
    expect(registry.expose()).toMatch(/^plinth_storage_calls_refused_total 0$/m);
    metrics.pending(1);
    metrics.pending(1);
    metrics.pending(-1);
    metrics.refused();
    expect(registry.expose()).toMatch(/^plinth_storage_pending_calls 1$/m);
    expect(registry.expose()).toMatch(/^plinth_storage_calls_refused_total 1$/m);
  });

  it('shares one histogram among the stores of a process', () => {
    const registry = new Registry();
    new StorageLinkMetrics(registry);
    expect(() => new StorageLinkMetrics(registry)).not.toThrow();
    expect(registry.families().filter((f) => f.name === 'plinth_storage_request_duration_seconds')).toHaveLength(1);
  });
});
