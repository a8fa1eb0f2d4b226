import { eventually } from '@plinth/testing';
import { spawn } from 'node:child_process';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const kubectlBinary = process.env.KUBECTL ?? '/usr/bin/kubectl';

// kubectl132Binary is kubectl 1.32 itself: /usr/bin/kubectl dispatches on the server version
// (1.28), and kubectl 1.32's typed clients speak protobuf where 1.28's send JSON.
export const kubectl132Binary = process.env.KUBECTL_1_32 ?? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';

// kubectl runs the real kubectl against a kubeconfig, with a bounded run time.
export function kubectl(kubeconfig: string, args: string[], options: { input?: string; timeoutMs?: number; binary?: string } = {}): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.binary ?? kubectlBinary, ['--kubeconfig', kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, KUBECACHEDIR: `${kubeconfig}.cache` } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kubectl ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    // A kubectl that reads no input may exit before its stdin is written: the pipe's EPIPE
    // says nothing its exit code and output do not.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

// spawnKubectl starts a long-running kubectl (get -w) whose output the test reads as it comes.
export function spawnKubectl(kubeconfig: string, args: string[]) {
  const child = spawn(kubectlBinary, ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECACHEDIR: `${kubeconfig}.cache` } });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  return {
    output: () => stdout,
    waitFor(pattern: RegExp, timeoutMs = 15000): Promise<string> {
      return eventually(() => stdout, { until: (out) => pattern.test(out), what: `kubectl ${args.join(' ')} printing ${pattern}`, timeoutMs });
    },
    stop: () => child.kill('SIGTERM'),
  };
}

// kubectlUntil runs kubectl until its output matches, failing with the last output after the
// timeout.
export async function kubectlUntil(kubeconfig: string, args: string[], pattern: RegExp, timeoutMs = 30000): Promise<string> {
  return eventually(async () => (await kubectl(kubeconfig, args)).stdout, { until: (out) => pattern.test(out), what: `kubectl ${args.join(' ')} printing ${pattern}`, timeoutMs, intervalMs: 250 });
}
