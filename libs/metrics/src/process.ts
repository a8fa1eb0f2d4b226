// registerProcessMetrics adds client_golang's process collector metrics that a Node process can
// report: CPU time, resident memory and start time, and, where /proc tells them (Linux), open
// and maximum file descriptors and virtual memory, read when scraped.
import { readFileSync, readdirSync } from 'node:fs';
import { Counter, Gauge, Registry } from './registry';

export interface ProcessState {
  cpuSeconds(): number;
  residentBytes(): number;
  startTimeSeconds: number;
  // The /proc readings, absent where there is no /proc.
  openFds?(): number;
  maxFds?(): number;
  virtualBytes?(): number;
}

export function currentProcess(): ProcessState {
  return {
    cpuSeconds: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    },
    residentBytes: () => process.memoryUsage.rss(),
    startTimeSeconds: Math.floor(Date.now() / 1000 - process.uptime()),
    ...procReadings('/proc/self'),
  };
}

// procReadings reads a process's /proc folder as client_golang's procfs collector does; none
// where the folder cannot be read.
export function procReadings(dir: string): Pick<ProcessState, 'openFds' | 'maxFds' | 'virtualBytes'> {
  try {
    readdirSync(`${dir}/fd`);
  } catch {
    return {};
  }
  return {
    openFds: () => readdirSync(`${dir}/fd`).length,
    maxFds: () => {
      const line = readFileSync(`${dir}/limits`, 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
      const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
      return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
    },
    virtualBytes: () => {
      // Fields after the command name (which may hold spaces, inside parentheses): vsize is the
      // 23rd field of the line, the 21st after it.
      const stat = readFileSync(`${dir}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[20]);
    },
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
  const readings: [name: string, help: string, read: (() => number) | undefined][] = [
    ['process_open_fds', 'Number of open file descriptors.', state.openFds],
    ['process_max_fds', 'Maximum number of open file descriptors.', state.maxFds],
    ['process_virtual_memory_bytes', 'Virtual memory size in bytes.', state.virtualBytes],
  ];
  for (const [name, help, read] of readings) {
    if (!read) continue;
    const gauge = registry.register(new Gauge({ name, help }));
    gauge.collect = () => gauge.set(read());
  }
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
