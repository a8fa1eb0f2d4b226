// record.ts plays the differential suite's scenarios against a real kube-apiserver (the admin
// kubeconfig in $KUBECONFIG) and writes what it answered, normalised, beside each scenario file
// (scenarios/<area>.recorded.json). Run by hand:
//   KUBECONFIG=... node -r ./tools/register.js tools/differential/record.ts [--missing] [--prefix P] [area ...]
// --missing records only the scenarios that have no recording (or whose steps changed in number);
// --prefix names the scenarios' namespaces `P-<suffix>` (default `diff`) on a server others share.
// An area file that names server settings (`server:`) is recorded against a kube-apiserver
// started with them: `record.ts --flags <area>` prints its flags, and before recording the
// recorder checks that the server shows them (its feature gates in /metrics, each runtime-config
// group version and resource in discovery), refusing an area the server does not match.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { runScenario } from '../../test/differential/run';
import { AreaFile, areaFiles, loadArea, loadRecording, Recording, recordingPath } from '../../test/differential/scenario';
import { kubeApiserverFlags } from '../../test/differential/server-flags';
import { send, Target } from '../../test/differential/transport';

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

async function read(target: Target, path: string): Promise<{ status: number; text: string }> {
  const answer = await send(target, { method: 'GET', path, headers: {} });
  return { status: answer.status, text: answer.body.toString('utf8') };
}

// groupVersionPath is the discovery path of a runtime-config key's group version (`v1`,
// `api/v1`, `batch/v1`), or undefined for the api/all, api/ga, api/beta and api/alpha keys.
function groupVersionPath(groupVersion: string): string | undefined {
  if (groupVersion === 'v1' || groupVersion === 'api/v1') return '/api/v1';
  return groupVersion.startsWith('api/') ? undefined : `/apis/${groupVersion}`;
}

// mismatches lists how the server differs from an area's server settings.
async function mismatches(target: Target, area: AreaFile): Promise<string[]> {
  const out: string[] = [];
  const metrics = Object.keys(area.server?.featureGates ?? {}).length > 0 ? (await read(target, '/metrics')).text : '';
  for (const [gate, on] of Object.entries(area.server?.featureGates ?? {})) {
    if (!new RegExp(`^kubernetes_feature_enabled\\{name="${gate}",stage="[A-Z]*"\\} ${on ? 1 : 0}$`, 'm').test(metrics)) out.push(`the feature gate ${gate} is not ${on}`);
  }
  for (const [key, on] of Object.entries(area.server?.runtimeConfig ?? {})) {
    const parts = key.split('/');
    const resource = parts.length === 3 || (parts.length === 2 && parts[0] === 'v1') ? parts.pop() : undefined;
    const path = groupVersionPath(parts.join('/'));
    if (!path) continue;
    const discovery = await read(target, path);
    const served = resource === undefined ? discovery.status === 200 : discovery.status === 200 && (JSON.parse(discovery.text) as { resources: { name: string }[] }).resources.some((r) => r.name === resource);
    if (served !== on) out.push(`${key} is ${served ? '' : 'not '}served`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--flags') {
    for (const file of areaFiles(args.slice(1))) console.log(kubeApiserverFlags(loadArea(file).server).join(' '));
    return;
  }
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig) throw new Error('KUBECONFIG must name the real kube-apiserver admin kubeconfig');
  const missingOnly = args.includes('--missing');
  const prefixAt = args.indexOf('--prefix');
  const prefix = prefixAt >= 0 ? args[prefixAt + 1] : 'diff';
  const target = targetOf(kubeconfig);
  for (const file of areaFiles(args.filter((a, i) => a !== '--missing' && i !== prefixAt && (prefixAt < 0 || i !== prefixAt + 1)))) {
    const area = loadArea(file);
    const differences = await mismatches(target, area);
    if (differences.length > 0) {
      console.error(`${area.area}: not recorded, the server was not started with ${kubeApiserverFlags(area.server).join(' ') || 'default flags'}: ${differences.join('; ')}`);
      process.exitCode = 1;
      continue;
    }
    const previous = loadRecording(file);
    const recording: Recording = {};
    for (const scenario of area.scenarios) {
      if (missingOnly && previous[scenario.name]?.length === scenario.steps.length) {
        recording[scenario.name] = previous[scenario.name];
        continue;
      }
      const { answers, unmet } = await runScenario(target, scenario, 'kubernetes', prefix);
      if (unmet.length > 0) {
        // A read that waited in vain recorded a state on the way, not the outcome.
        console.error(`${area.area}: ${scenario.name}: not recorded, the until of step ${unmet.join(', ')} never held`);
        process.exitCode = 1;
        if (previous[scenario.name]) recording[scenario.name] = previous[scenario.name];
        continue;
      }
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
