// Stock kubectl sessions (test/kubectl/stock/sessions.yaml) against the distributed form
// (gateway, storage over etcd, authz over NATS, the controller manager without simulated
// nodes): its output, normalised, is the one recorded from kube-apiserver 1.28.7.
import { startDistributed } from '../distributed';
import { describeStockSessions } from './stock/check';

describeStockSessions('distributed form', async () => {
  const plinth = await startDistributed({}, { controllers: ['--simulated-nodes', '0'] });
  return { adminKubeconfig: plinth.adminKubeconfig, stop: () => plinth.stop() };
});
