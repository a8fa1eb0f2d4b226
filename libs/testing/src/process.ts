import { ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { eventually, GiveUp } from './eventually';

export interface RunningProcess {
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

// startProcess spawns a server (in options.cwd, else this process's directory) and keeps the
// tail of its output for error messages.
export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, options: { cwd?: string } = {}): RunningProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env, cwd: options.cwd });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

// waitForPort resolves once something accepts TCP connections on the port, and rejects if the
// process exits first or the timeout passes.
export async function waitForPort(proc: RunningProcess, port: number, name: string, timeoutMs = 20000): Promise<void> {
  await eventually(
    () => {
      if (proc.child.exitCode !== null) throw new GiveUp(`${name} exited with code ${proc.child.exitCode}:\n${proc.output()}`);
      return canConnect(port);
    },
    { what: () => `${name} listening on 127.0.0.1:${port}; output:\n${proc.output()}\n`, timeoutMs },
  );
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// waitForOutput waits for the process to print (on stdout or stderr) a line matching pattern and
// returns the pattern's first group; it fails when the process exits first or time runs out.
export function waitForOutput(proc: RunningProcess, name: string, pattern: RegExp, timeoutMs = 60000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${proc.output()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (!match) return;
      clearTimeout(timer);
      proc.child.stdout?.off('data', onData);
      proc.child.stderr?.off('data', onData);
      proc.child.off('exit', onExit);
      resolve(match[1]);
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${proc.output()}`));
    };
    proc.child.stdout?.on('data', onData);
    proc.child.stderr?.on('data', onData);
    proc.child.once('exit', onExit);
  });
}
