// The scale section's objects part: N Leases in one namespace (BENCH_SCALE_OBJECTS, 100,000;
// 2,000 with BENCH_QUICK=1) on the distributed form (gateway → storage service → etcd, authz
// over NATS) and on the all-in-one, then 16 LISTs in pages of 500 at once (each a first page
// followed by continue pages) and one deletecollection of them all. Prints the pages' p50/p99
// (first pages and continue pages apart), the seconds the deletecollection took (until its
// answer, and until a list finds none left), the server processes' CPU per operation, which
// a loaded machine moves less than latency, and the RSS the stored objects added to them (once
// the API server's watch cache holds them all), per thousand.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { LeanHttpsPool, LeanResponse } from './lean-https';
import { memoryPerThousand, sampleRss } from './memory';
import { cpuSecondsOf, PlinthForm, startForm } from './processes';
import { runConcurrent, summarize } from './stats';

const inFlight = 16;
const createsInFlight = 32;
const pageSize = 500;
// pagesPerList is how many pages one measured LIST reads: its first page and the continue
// pages after it.
const pagesPerList = 5;
const namespace = 'bench-scale';
const collection = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;


interface Tls {
  ca: string;
  cert: string;
  key: string;
}

// scaleObjectsBench measures each form named (distributed, all-in-one) in turn, printing each
// form's lines as soon as it is measured.
export async function scaleObjectsBench(objects: number, lists: number, forms: string[], print: (line: string) => void): Promise<void> {
  print(`scale: ${objects.toLocaleString('en')} Leases in one namespace; ${lists} LISTs of ${pagesPerList} pages of ${pageSize}, ${inFlight} at once; one deletecollection of them all`);
  for (const name of forms) {
    if (name !== 'distributed' && name !== 'all-in-one') throw new Error(`BENCH_SCALE_FORMS: no form ${name} (distributed, all-in-one)`);
    const form = await startForm(name);
    try {
      for (const line of await measureForm(form, objects, lists)) print(line);
    } finally {
      await form.stop();
    }
  }
}

async function measureForm(form: PlinthForm, objects: number, lists: number): Promise<string[]> {
  const pki = (name: string) => readFileSync(join(form.dataDir, 'pki', name), 'utf8');
  const tls: Tls = { ca: pki('ca.crt'), cert: pki('admin.crt'), key: pki('admin.key') };
  const pool = new LeanHttpsPool(form.port, tls, {});
  const cpu = () => form.services.reduce((sum, [, { pid }]) => sum + cpuSecondsOf(pid), 0);
  try {
    expectStatus(await pool.call('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })), 201);
    // The first list starts the watch cache of Leases, before the memory it takes for them is measured.
    expectStatus(await pool.call('GET', `${collection}?limit=1`), 200);
    const emptyRss = sampleRss(form.services);
    let cpuBefore = cpu();
    const creates = await runConcurrent(objects, createsInFlight, (i) => pool.call('POST', collection, JSON.stringify(lease(i))).then((res) => expectStatus(res, 201)));
    const createCpu = cpu() - cpuBefore;
    const firstPages: number[] = [];
    const continuePages: number[] = [];
    // Warm-up: one LIST of every page, which also checks that the pages hold every object once.
    const listed = await listAllNames(pool);
    if (listed !== objects) throw new Error(`${form.name}: a paged LIST found ${listed} of ${objects} Leases`);
    const objectsMemory = memoryPerThousand('stored objects', objects, emptyRss, sampleRss(form.services));
    cpuBefore = cpu();
    const listing = await runConcurrent(lists, inFlight, () => pagedList(pool, firstPages, continuePages));
    const listCpu = cpu() - cpuBefore;
    const first = summarize(firstPages, listing.seconds);
    const next = summarize(continuePages, listing.seconds);
    cpuBefore = cpu();
    const started = process.hrtime.bigint();
    const answer = await deleteCollection(form.port, tls);
    const answered = Number(process.hrtime.bigint() - started) / 1e9;
    const requests = await untilEmpty(pool, () => deleteCollection(form.port, tls));
    const emptied = Number(process.hrtime.bigint() - started) / 1e9;
    const deleteCpu = cpu() - cpuBefore;
    const ms = (n: number) => n.toFixed(0);
    const us = (seconds: number, ops: number) => ((seconds * 1e6) / Math.max(1, ops)).toFixed(0);
    return [
      `  ${form.name}: creates ${creates.opsPerSecond.toFixed(0)}/s (${createsInFlight} in flight, ${us(createCpu, objects)} µs server CPU each)`,
      `    LIST pages of ${pageSize}, ${inFlight} at once: first pages p50 ${ms(first.p50)} ms, p99 ${ms(first.p99)} ms; continue pages p50 ${ms(next.p50)} ms, p99 ${ms(next.p99)} ms; ${us(listCpu, firstPages.length + continuePages.length)} µs server CPU a page`,
      `    deletecollection of ${objects.toLocaleString('en')}: ${answer.status} after ${answered.toFixed(1)} s (${(answer.bytes / 1e6).toFixed(1)} MB), none left after ${emptied.toFixed(1)} s${requests > 0 ? ` (${requests} more deletecollection${requests > 1 ? 's' : ''} after a 504)` : ''}; ${us(deleteCpu, objects)} µs server CPU an object`,
      `    ${objectsMemory.trimStart()}`,
    ];
  } finally {
    pool.close();
  }
}

function lease(i: number): unknown {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: `lease-${String(i).padStart(6, '0')}`, labels: { bench: 'scale' } }, spec: { holderIdentity: `holder-${i}`, leaseDurationSeconds: 15 } };
}

function expectStatus(res: LeanResponse, status: number): LeanResponse {
  if (res.status !== status) throw new Error(`unexpected ${res.status}: ${res.body.slice(0, 300)}`);
  return res;
}

// continueOf reads a page's continue token without parsing its 500 items (which would cost
// the load generator, on the same two cores, more than the servers spend answering).
function continueOf(body: string): string {
  return /"continue":"([^"]*)"/.exec(body)?.[1] ?? '';
}

function pagePath(token: string): string {
  return `${collection}?limit=${pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
}

async function pagedList(pool: LeanHttpsPool, firstPages: number[], continuePages: number[]): Promise<void> {
  let token = '';
  for (let page = 0; page < pagesPerList; page++) {
    const t0 = process.hrtime.bigint();
    const res = expectStatus(await pool.call('GET', pagePath(token)), 200);
    (page === 0 ? firstPages : continuePages).push(Number(process.hrtime.bigint() - t0) / 1e6);
    token = continueOf(res.body);
    if (!token) return;
  }
}

async function listAllNames(pool: LeanHttpsPool): Promise<number> {
  const names = new Set<string>();
  let token = '';
  do {
    const page = JSON.parse(expectStatus(await pool.call('GET', pagePath(token)), 200).body) as { items: { metadata: { name: string } }[]; metadata: { continue?: string } };
    for (const item of page.items) names.add(item.metadata.name);
    token = page.metadata.continue ?? '';
  } while (token);
  return names.size;
}

// deleteCollection sends one DELETE of the collection and reads its answer (the list of what
// was deleted, tens of MB) through node:https, counting its bytes.
function deleteCollection(port: number, tls: Tls): Promise<{ status: number; bytes: number }> {
  const agent = new Agent({ keepAlive: false, ...tls });
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'DELETE', path: collection, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        agent.destroy();
        resolve({ status: res.statusCode ?? 0, bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

// untilEmpty deletes again, as a client of a deletecollection answered 504 would (the request's
// context ended with its timeout, so the server stopped deleting), until a list finds no Lease
// left; it returns how many more deletecollections that took.
async function untilEmpty(pool: LeanHttpsPool, deleteAgain: () => Promise<{ status: number }>): Promise<number> {
  for (let requests = 0; ; requests++) {
    const page = JSON.parse(expectStatus(await pool.call('GET', `${collection}?limit=1`), 200).body) as { items: unknown[] };
    if (page.items.length === 0) return requests;
    await deleteAgain();
  }
}


