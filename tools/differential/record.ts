// record.ts plays the differential suite's scenarios against a real kube-apiserver (the admin
// kubeconfig in $KUBECONFIG) and writes what it answered, normalised, beside each scenario file
// (scenarios/<area>.recorded.json). Run by hand:
//   KUBECONFIG=... node -r ./tools/register.js tools/differential/record.ts [--missing] [area ...]
// --missing records only the scenarios that have no recording (or whose steps changed in number).
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { runScenario } from '../../test/differential/run';
import { areaFiles, loadArea, loadRecording, Recording, recordingPath } from '../../test/differential/scenario';
import { Target } from '../../test/differential/transport';

interface Kubeconfig {
  clusters: { cluster: { server: string; 'certificate-authority-data'?: string } }[];
  users: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string; token?: string } }[];
}

function targetOf(kubeconfigPath: string): Target {
  const config = parse(readFileSync(kubeconfigPath, 'utf8')) as Kubeconfig;
  const cluster = config.clusters[0].cluster;
  const user = config.users[0].user;
  const decode = (b64?: string) => (b64 ? Buffer.from(b64, 'base64').toString('utf8') : undefined);
  return { base: cluster.server, ca: decode(cluster['certificate-authority-data']), cert: decode(user['client-certificate-data']), key: decode(user['client-key-data']), token: user.token };
}

async function main(): Promise<void> {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig) throw new Error('KUBECONFIG must name the real kube-apiserver admin kubeconfig');
  const args = process.argv.slice(2);
  const missingOnly = args.includes('--missing');
  const target = targetOf(kubeconfig);
  for (const file of areaFiles(args.filter((a) => a !== '--missing'))) {
    const area = loadArea(file);
    const previous = loadRecording(file);
    const recording: Recording = {};
    for (const scenario of area.scenarios) {
      if (missingOnly && previous[scenario.name]?.length === scenario.steps.length) {
        recording[scenario.name] = previous[scenario.name];
        continue;
      }
      const { answers } = await runScenario(target, scenario, 'kubernetes');
      recording[scenario.name] = answers;
      console.log(`${area.area}: ${scenario.name}: ${answers.map((a) => a.status).join(' ')}`);
    }
    writeFileSync(recordingPath(file), JSON.stringify(recording, null, 1) + '\n');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
