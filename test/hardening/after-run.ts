// Checks after a hostile run, by behaviour, so that they hold for a server in another process
// too: a fresh object reads back with nothing but what was written (an inherited property on
// Object.prototype shows up wherever the server copies with for..in or reads a missing field),
// a user without rights is still refused, and the server still answers its health check.
import { pollutionKey } from './mutators';
import { HostileRunner, HostileTarget, requestTimeoutMs } from './hostile-run';
import { hostileNamespace } from './fixtures';
import { requestBytes, sendRaw } from './raw-client';

export async function behaviourAfterRun(target: HostileTarget): Promise<{ created: number; pollutedAnswers: string[]; unprivilegedList: number; healthz: string }> {
  const runner = new HostileRunner(target);
  try {
    const name = `after-run-${Date.now()}`;
    const collection = `/api/v1/namespaces/${hostileNamespace}/serviceaccounts`;
    const created = await runner.admin('POST', collection, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, labels: { a: '1' } } });
    const answers = [created, await runner.admin('GET', `${collection}/${name}`), await runner.admin('GET', collection), await runner.admin('GET', '/api/v1/namespaces/default'), await runner.admin('GET', '/version')];
    const pollutedAnswers = answers.map((a) => a.body.toString('utf8')).filter((text) => text.includes(pollutionKey));
    const unprivileged = await sendRaw(target, requestBytes('GET', '/api/v1/secrets', [['authorization', `Bearer ${target.unprivilegedToken}`]]), { timeoutMs: requestTimeoutMs });
    const healthz = await runner.admin('GET', '/healthz');
    return { created: created.status, pollutedAnswers, unprivilegedList: unprivileged.status, healthz: `${healthz.status} ${healthz.body.toString()}` };
  } finally {
    runner.close();
  }
}

// failureReport is the message a failed run ends with: how to run the same cases again, then
// every failure.
export function failureReport(seed: number, total: number, failures: string[]): string {
  if (failures.length === 0) return '';
  return `${failures.length} problems in ${total} hostile requests; HARDENING_SEED=${seed} generates the same cases:\n${failures.slice(0, 200).join('\n')}`;
}
