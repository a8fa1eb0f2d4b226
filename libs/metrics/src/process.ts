// registerProcessMetrics adds client_golang's process collector metrics that a Node process can
// report: CPU time, resident memory and start time, read when scraped.
import { Counter, Gauge, Registry } from './registry';

export interface ProcessState {
  cpuSeconds(): number;
  residentBytes(): number;
  startTimeSeconds: number;
}

export function currentProcess(): ProcessState {
  return {
    cpuSeconds: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    },
    residentBytes: () => process.memoryUsage.rss(),
    startTimeSeconds: Math.floor(Date.now() / 1000 - process.uptime()),
  };
}

export function registerProcessMetrics(registry: Registry, state: ProcessState = currentProcess()): void {
  const cpu = registry.register(new Counter({ name: 'process_cpu_seconds_total', help: 'Total user and system CPU time spent in seconds.' }));
  cpu.collect = () => {
    const child = cpu.labels();
    child.value = state.cpuSeconds();
  };
  const rss = registry.register(new Gauge({ name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes.' }));
  rss.collect = () => rss.set(state.residentBytes());
  registry.register(new Gauge({ name: 'process_start_time_seconds', help: 'Start time of the process since unix epoch in seconds.' })).set(state.startTimeSeconds);
}

let processRegistry: Registry | null = null;

// defaultRegistry is the process's registry, with the process metrics: what an app serves on
// /metrics and what its components register on.
export function defaultRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    registerProcessMetrics(processRegistry);
  }
  return processRegistry;
}
