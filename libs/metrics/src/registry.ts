// A metric registry and the Prometheus text exposition format (version 0.0.4), written as
// client_golang writes it: families sorted by name, label pairs sorted by name (le last on a
// bucket), series sorted by their label values, numbers as Go's strconv 'g' formatting. A
// family without series is left out, as client_golang leaves out an empty vector. A scraper
// that asks for OpenMetrics (1.0.0) gets it instead, with the exemplars of the histogram
// buckets (the trace of the latest observation in each), as client_golang writes it.
//
// The hot path is a cached child per label combination: `counter.labels(...).inc()` is a map
// lookup and an addition; the text is built only when scraped.
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricOptions {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

// Metric is one family: a name, its help and type, and its series.
export abstract class Metric<Child> {
  abstract readonly type: MetricType;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  protected readonly children = new Map<string, { values: readonly string[]; child: Child }>();
  // collect runs before each exposition, to set values read from elsewhere (process state, a
  // cache's size).
  collect?: () => void;

  constructor(options: MetricOptions) {
    validateName(options.name);
    for (const label of options.labelNames ?? []) validateLabelName(label);
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames ?? [];
  }

  // labels returns the child of one label combination, creating it on first use.
  labels(...values: string[]): Child {
    const key = values.length === 1 ? values[0] : values.join('\u0000');
    const existing = this.children.get(key);
    if (existing) return existing.child;
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name}: ${values.length} label values for ${this.labelNames.length} labels`);
    }
    const child = this.newChild();
    this.children.set(key, { values: [...values], child });
    return child;
  }

  // remove drops the series of one label combination.
  remove(...values: string[]): void {
    this.children.delete(values.length === 1 ? values[0] : values.join('\u0000'));
  }

  // reset drops every series.
  reset(): void {
    this.children.clear();
  }

  protected abstract newChild(): Child;

  // series lists the samples of each series, in exposition order.
  abstract samples(): Sample[];

  protected sortedChildren(): { labels: Label[]; child: Child }[] {
    const order = this.labelNames.map((name, i) => ({ name, i })).sort((a, b) => compare(a.name, b.name));
    const rows = [...this.children.values()].map(({ values, child }) => ({ labels: order.map(({ name, i }) => [name, values[i]] as Label), child }));
    return rows.sort((a, b) => {
      for (let i = 0; i < a.labels.length; i++) {
        const c = compare(a.labels[i][1], b.labels[i][1]);
        if (c !== 0) return c;
      }
      return 0;
    });
  }
}

export type Label = [name: string, value: string];

export interface Sample {
  suffix: string;
  labels: Label[];
  value: number;
  exemplar?: Exemplar;
}

// Exemplar is one observation kept with its labels (a trace id), as OpenMetrics exposes it
// after a bucket's count.
export interface Exemplar {
  labels: Label[];
  value: number;
  timestampMs: number;
}

// maxExemplarLabelRunes is OpenMetrics' bound on an exemplar's label names and values together.
const maxExemplarLabelRunes = 128;

export class CounterChild {
  value = 0;

  inc(amount = 1): void {
    this.value += amount;
  }
}

export class Counter extends Metric<CounterChild> {
  readonly type = 'counter';

  // inc adds to a counter without labels.
  inc(amount = 1): void {
    this.labels().inc(amount);
  }

  protected newChild(): CounterChild {
    return new CounterChild();
  }

  samples(): Sample[] {
    return this.sortedChildren().map(({ labels, child }) => ({ suffix: '', labels, value: child.value }));
  }
}

export class GaugeChild {
  value = 0;

  set(value: number): void {
    this.value = value;
  }

  inc(amount = 1): void {
    this.value += amount;
  }

  dec(amount = 1): void {
    this.value -= amount;
  }
}

export class Gauge extends Metric<GaugeChild> {
  readonly type = 'gauge';

  // set sets a gauge without labels.
  set(value: number): void {
    this.labels().set(value);
  }

  protected newChild(): GaugeChild {
    return new GaugeChild();
  }

  samples(): Sample[] {
    return this.sortedChildren().map(({ labels, child }) => ({ suffix: '', labels, value: child.value }));
  }
}

export class HistogramChild {
  // counts holds the observations per bucket (not cumulative); the last slot is +Inf.
  readonly counts: number[];
  sum = 0;
  count = 0;
  // exemplars holds the latest exemplar of each bucket, once one was observed.
  exemplars: (Exemplar | undefined)[] | null = null;

  constructor(private readonly upperBounds: readonly number[]) {
    this.counts = new Array<number>(upperBounds.length + 1).fill(0);
  }

  // observe counts a value in its bucket, and returns the bucket's index.
  observe(value: number): number {
    const bounds = this.upperBounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
    return i;
  }

  // observeInTrace observes a value with the trace it was measured in as its exemplar
  // (trace_id, the label Grafana and Prometheus read), or plainly outside any sampled trace.
  observeInTrace(value: number, traceId: string | null | undefined): void {
    if (traceId) this.observeWithExemplar(value, { trace_id: traceId });
    else this.observe(value);
  }

  // observeWithExemplar observes a value and keeps it as its bucket's exemplar with the labels
  // given (trace_id), as client_golang's ObserveWithExemplar; labels past OpenMetrics' 128
  // characters are not kept.
  observeWithExemplar(value: number, labels: Record<string, string>, timestampMs = Date.now()): void {
    const bucket = this.observe(value);
    const pairs = Object.entries(labels).sort(([a], [b]) => compare(a, b));
    if (pairs.reduce((n, [name, v]) => n + [...name].length + [...v].length, 0) > maxExemplarLabelRunes) return;
    this.exemplars ??= new Array<Exemplar | undefined>(this.counts.length);
    this.exemplars[bucket] = { labels: pairs, value, timestampMs };
  }
}

export interface HistogramOptions extends MetricOptions {
  buckets: readonly number[];
}

export class Histogram extends Metric<HistogramChild> {
  readonly type = 'histogram';
  readonly buckets: readonly number[];

  constructor(options: HistogramOptions) {
    super(options);
    if (this.labelNames.includes('le')) throw new Error(`${options.name}: "le" is reserved for buckets`);
    const sorted = [...options.buckets].sort((a, b) => a - b);
    if (sorted.length === 0 || sorted.some((b, i) => i > 0 && b === sorted[i - 1])) throw new Error(`${options.name}: buckets must be distinct and not empty`);
    this.buckets = sorted.filter((b) => b !== Infinity);
  }

  // observe records a value in a histogram without labels.
  observe(value: number): void {
    this.labels().observe(value);
  }

  protected newChild(): HistogramChild {
    return new HistogramChild(this.buckets);
  }

  samples(): Sample[] {
    const samples: Sample[] = [];
    for (const { labels, child } of this.sortedChildren()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += child.counts[i];
        samples.push({ suffix: '_bucket', labels: [...labels, ['le', formatNumber(bound)]], value: cumulative, exemplar: child.exemplars?.[i] });
      });
      samples.push({ suffix: '_bucket', labels: [...labels, ['le', '+Inf']], value: child.count, exemplar: child.exemplars?.[this.buckets.length] });
      samples.push({ suffix: '_sum', labels, value: child.sum });
      samples.push({ suffix: '_count', labels, value: child.count });
    }
    return samples;
  }
}

// exponentialBuckets is client_golang's ExponentialBuckets: count bounds from start, each
// factor times the one before.
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const buckets: number[] = [];
  for (let i = 0, b = start; i < count; i++, b *= factor) buckets.push(b);
  return buckets;
}

// FamilySnapshot is one family as gathered at a moment: plain data, which a worker thread can
// post to the thread that serves /metrics.
export interface FamilySnapshot {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

// MetricsSource gathers families kept elsewhere (another thread's registry) for an exposition.
export type MetricsSource = () => Promise<FamilySnapshot[]>;

export class Registry {
  private readonly metrics = new Map<string, Metric<unknown>>();
  private readonly sources = new Set<MetricsSource>();

  register<M extends Metric<unknown>>(metric: M): M {
    if (this.metrics.has(metric.name)) throw new Error(`metric ${metric.name} is already registered`);
    this.metrics.set(metric.name, metric);
    return metric;
  }

  // shared returns the metric already registered under the metric's name, or registers it: for
  // a component that may be built more than once over one registry. The two must agree.
  shared<M extends Metric<unknown>>(metric: M): M {
    const existing = this.metrics.get(metric.name);
    if (!existing) return this.register(metric);
    if (existing.constructor !== metric.constructor || existing.labelNames.join() !== metric.labelNames.join()) {
      throw new Error(`metric ${metric.name} is already registered with another type or labels`);
    }
    return existing as M;
  }

  names(): string[] {
    return [...this.metrics.keys()].sort(compare);
  }

  // families lists the registered metrics by name with their types.
  families(): { name: string; type: MetricType }[] {
    return this.names().map((name) => ({ name, type: (this.metrics.get(name) as Metric<unknown>).type }));
  }

  // gather reads every family with series, by name.
  gather(): FamilySnapshot[] {
    const families: FamilySnapshot[] = [];
    for (const name of this.names()) {
      const metric = this.metrics.get(name) as Metric<unknown>;
      metric.collect?.();
      const samples = metric.samples();
      if (samples.length > 0) families.push({ name, help: metric.help, type: metric.type, samples });
    }
    return families;
  }

  // addSource adds the families a source gathers to every scrape, until the returned function
  // removes it.
  addSource(source: MetricsSource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  // scrape exposes this registry's families with its sources' (a source that fails adds none).
  async scrape(format: ExpositionFormat = 'text'): Promise<string> {
    const gathered = await Promise.all([...this.sources].map((source) => source().catch((): FamilySnapshot[] => [])));
    return this.expose(format, gathered.flat());
  }

  // expose writes every family in the text format, or in OpenMetrics, with the families given
  // (gathered elsewhere) merged in: a family of the same name and type gains the series this
  // registry has not (this registry's own win: both threads of a process report the same
  // process_* series), one of another type is left out.
  expose(format: ExpositionFormat = 'text', others: readonly FamilySnapshot[] = []): string {
    const families = mergeFamilies(this.gather(), others);
    let text = '';
    for (const family of families) text += format === 'openmetrics' ? openMetricsFamily(family) : textFamily(family);
    return format === 'openmetrics' ? `${text}# EOF\n` : text;
  }
}

function mergeFamilies(own: FamilySnapshot[], others: readonly FamilySnapshot[]): FamilySnapshot[] {
  if (others.length === 0) return own;
  const byName = new Map(own.map((family) => [family.name, family]));
  for (const other of others) {
    const mine = byName.get(other.name);
    if (!mine) {
      byName.set(other.name, other);
      continue;
    }
    if (mine.type !== other.type) continue;
    const seen = new Set(mine.samples.map(sampleKey));
    const added = other.samples.filter((sample) => !seen.has(sampleKey(sample)));
    if (added.length > 0) byName.set(other.name, { ...mine, samples: [...mine.samples, ...added] });
  }
  return [...byName.values()].sort((a, b) => compare(a.name, b.name));
}

function sampleKey(sample: Sample): string {
  return `${sample.suffix}${formatLabels(sample.labels)}`;
}

function textFamily({ name, help, type, samples }: FamilySnapshot): string {
  let text = `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;
  for (const sample of samples) text += `${name}${sample.suffix}${formatLabels(sample.labels)} ${formatNumber(sample.value)}\n`;
  return text;
}

export type ExpositionFormat = 'text' | 'openmetrics';

// contentType is the media type of the text format.
export const contentType = 'text/plain; version=0.0.4; charset=utf-8';

// openMetricsContentType is the media type of OpenMetrics 1.0.0.
export const openMetricsContentType = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

// negotiateExposition picks the format an Accept header asks for, as client_golang's
// expfmt.Negotiate does for a scraper: OpenMetrics when it is accepted, the text format
// otherwise.
export function negotiateExposition(accept: string | undefined): { format: ExpositionFormat; contentType: string } {
  const asked = (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return type === 'application/openmetrics-text' && (q === undefined || Number(q.slice(2)) > 0);
  });
  return asked ? { format: 'openmetrics', contentType: openMetricsContentType } : { format: 'text', contentType };
}

// openMetricsFamily writes one family as client_golang's OpenMetrics encoder does: a counter's
// family is named without its _total, which its samples carry; bucket exemplars follow " # ".
function openMetricsFamily({ name, help, type, samples }: FamilySnapshot): string {
  const family = type === 'counter' ? name.replace(/_total$/, '') : name;
  let text = `# HELP ${family} ${escapeOpenMetricsHelp(help)}\n# TYPE ${family} ${type}\n`;
  for (const sample of samples) {
    const sampleName = type === 'counter' ? `${family}_total` : `${name}${sample.suffix}`;
    text += `${sampleName}${formatLabels(sample.labels)} ${formatNumber(sample.value)}`;
    const exemplar = sample.exemplar;
    if (exemplar) text += ` # ${formatLabels(exemplar.labels) || '{}'} ${formatNumber(exemplar.value)} ${formatTimestamp(exemplar.timestampMs)}`;
    text += '\n';
  }
  return text;
}

function escapeOpenMetricsHelp(help: string): string {
  return escapeHelp(help).replace(/"/g, '\\"');
}

// formatTimestamp writes milliseconds as seconds with the fraction OpenMetrics takes.
function formatTimestamp(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function formatLabels(labels: Label[]): string {
  if (labels.length === 0) return '';
  return `{${labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

// formatNumber is Go's strconv.FormatFloat(v, 'g', -1, 64), as client_golang writes values:
// the shortest representation, in exponent form below 1e-4 and from 1e6 up.
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(value);
  const sign = exponent < 0 ? '-' : '+';
  const digits = String(Math.abs(exponent)).padStart(2, '0');
  return `${mantissa}e${sign}${digits}`;
}

function validateName(name: string): void {
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`invalid metric name ${JSON.stringify(name)}`);
}

function validateLabelName(name: string): void {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name) || name.startsWith('__')) throw new Error(`invalid label name ${JSON.stringify(name)}`);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
