// Stock kubectl sessions (test/kubectl/stock/sessions.yaml) against the all-in-one, without
// simulated nodes as the recording kube-apiserver had none: its output, normalised, is the one
// recorded from kube-apiserver 1.28.7.
import { startPlinth } from '@plinth/testing-server';
import { describeStockSessions } from './stock/check';

describeStockSessions('all-in-one', async () => {
  const plinth = await startPlinth(['--simulated-nodes', '0']);
  return { adminKubeconfig: plinth.kubeconfig, stop: () => plinth.stop() };
});
