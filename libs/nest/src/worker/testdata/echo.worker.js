// A worker for controllers-worker.host.spec.ts: it answers the supervisor with answerSupervisor
// (the TypeScript compiled by tools/register.js), reporting as its one metric the server of the
// credentials it started with or was handed; "crash" in workerData.flags makes it throw at start
// instead.
const { join } = require('node:path');
require(join(__dirname, '../../../../../tools/register.js'));
const { threadId, workerData } = require('node:worker_threads');
const { answerSupervisor } = require('../supervised-thread.ts');

if (workerData.flags.crash) throw new Error(`worker ${threadId} crashed at start`);
let credentials = workerData.credentials;
answerSupervisor(
  {
    stop: async () => undefined,
    answer: (body) => {
      if (body === 'metrics') return [{ name: 'echo_worker_up', help: 'The echo worker runs.', type: 'gauge', samples: [{ suffix: '', labels: [['server', credentials ? credentials.server : 'none']], value: threadId }] }];
      if (body && typeof body === 'object' && 'credentials' in body) credentials = body.credentials;
      return true;
    },
  },
  () => undefined,
);
