// npm run bench: performance figures, printed as tables. BENCH_QUICK=1 runs fewer operations.
// `npm run bench -- --vs-kubeconfig FILE` (or BENCH_VS_KUBECONFIG) runs the vs section beside
// the kube-apiserver of that kubeconfig instead of the default sections.
import { gatewayBench } from './gateway.bench';
import { jobsBench } from './jobs.bench';
import { buildApps, FormName } from './processes';
import { scaleBench, ScaleTransport } from './scale.bench';
import { scaleObjectsBench } from './scale-objects.bench';
import { storageBench } from './storage.bench';
import { vsBench } from './vs.bench';

function vsKubeconfig(): string | undefined {
  const at = process.argv.indexOf('--vs-kubeconfig');
  return at >= 0 ? process.argv[at + 1] : process.env.BENCH_VS_KUBECONFIG || undefined;
}

async function main(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const counts = quick ? { writes: 1000, reads: 2000, lists: 20, watches: 100 } : { writes: 5000, reads: 10000, lists: 100, watches: 500 };
  const kubeconfig = vsKubeconfig();
  const sections = (process.env.BENCH_SECTIONS ?? (kubeconfig ? 'vs' : 'storage,gateway,jobs')).split(',');
  if (sections.some((section) => section !== 'jobs')) buildApps();
  if (sections.includes('vs')) {
    if (!kubeconfig) throw new Error('the vs section needs --vs-kubeconfig FILE (or BENCH_VS_KUBECONFIG) of a kube-apiserver');
    for (const line of await vsBench(kubeconfig, counts)) console.log(line);
  }
  if (sections.includes('storage')) for (const line of await storageBench(counts)) console.log(line);
  if (sections.includes('gateway')) {
    console.log('');
    for (const line of await gatewayBench(counts)) console.log(line);
  }
  if (sections.includes('jobs')) {
    console.log('');
    for (const line of await jobsBench(quick ? 20 : 100)) console.log(line);
  }
  // scale runs only when asked for (BENCH_SECTIONS=scale): it opens thousands of connections.
  if (sections.includes('scale')) {
    console.log('');
    const watches = Number(process.env.BENCH_SCALE_WATCHES ?? (quick ? 1000 : 10000));
    const forms = (process.env.BENCH_SCALE_FORMS ?? 'distributed,all-in-one').split(',');
    const transports = (process.env.BENCH_SCALE_TRANSPORTS ?? 'h2,http1').split(',') as ScaleTransport[];
    if (watches > 0) for (const line of await scaleBench(watches, forms as FormName[], transports)) console.log(line);
    const objects = Number(process.env.BENCH_SCALE_OBJECTS ?? (quick ? 2000 : 100000));
    if (objects > 0) await scaleObjectsBench(objects, quick ? 32 : 160, forms, (line) => console.log(line));
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
