/**
 * The Node path's metrics engine, after k6's (internal/metrics/engine): a registry of built-in
 * and script metrics, sinks per metric and per threshold sub-metric (`name{tag:value}`),
 * threshold runs during the test (empty sinks skipped, for `abortOnFail`) and at the end (every
 * sink), and the `metrics` part of the end-of-test summary data.
 */
import { EXIT } from './exit-codes.js';
import { K6RunError } from '../../lib/errors.js';
import { newSink, type Sink } from './sinks.js';
import { parseThresholdList, runThreshold, validateAggregations, type MetricType, type ThresholdConfig } from './thresholds.js';

export interface MetricDef { name: string; type: MetricType; contains: 'time' | 'data' | 'default' }
export interface Sample { metric: string; value: number; tags: Record<string, string> }

const T = (name: string): MetricDef => ({ name, type: 'trend', contains: 'time' });
/** k6's built-in metrics that the Node path emits or accepts thresholds on. */
export const BUILTIN_METRICS: MetricDef[] = [
  { name: 'vus', type: 'gauge', contains: 'default' }, { name: 'vus_max', type: 'gauge', contains: 'default' },
  { name: 'iterations', type: 'counter', contains: 'default' }, T('iteration_duration'),
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
  { name: 'data_received', type: 'counter', contains: 'data' }, { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'checks', type: 'rate', contains: 'default' }, T('group_duration'),
  { name: 'http_reqs', type: 'counter', contains: 'default' }, { name: 'http_req_failed', type: 'rate', contains: 'default' },
  T('http_req_duration'), T('http_req_blocked'), T('http_req_connecting'), T('http_req_tls_handshaking'),
  T('http_req_sending'), T('http_req_waiting'), T('http_req_receiving'),
];

interface Tracked {
  def: MetricDef;
  /** Summary name: the metric's, or `parent{tags}` for a sub-metric. */
  key: string;
  sink: Sink;
  filter?: Record<string, string>;
  thresholds: ThresholdConfig[];
  lastFailed: boolean[];
  observed: boolean;
}

/** Splits `name{a:b,c:"d"}` into the name and its tag filter (k6's ParseMetricName). */
export function parseMetricName(full: string): { name: string; tags?: Record<string, string> } {
  const open = full.indexOf('{');
  if (open === -1) return { name: full };
  if (!full.endsWith('}')) throw new K6RunError(EXIT.invalidConfig, `missing ending bracket, sub-metric format needs to be 'metric{key:value}': ${full}`);
  const tags: Record<string, string> = {};
  for (const part of full.slice(open + 1, -1).split(',')) {
    const colon = part.indexOf(':');
    const key = part.slice(0, colon).trim();
    const value = part.slice(colon + 1).trim().replace(/^(["'])(.*)\1$/, '$2');
    if (colon === -1 || key === '' || value === '') throw new K6RunError(EXIT.invalidConfig, `invalid metric name ${full}: tags must be key:value pairs`);
    tags[key] = value;
  }
  return { name: full.slice(0, open), tags };
}

export class MetricsEngine {
  readonly #metrics = new Map<string, Tracked>();
  readonly #subs = new Map<string, Tracked[]>();

  constructor(registry: readonly MetricDef[], thresholds: Record<string, unknown>, parseMs: (v: unknown, what: string) => number,
    private readonly log: (message: string) => void = () => undefined) {
    for (const def of registry) this.#metrics.set(def.name, { def, key: def.name, sink: newSink(def.type), thresholds: [], lastFailed: [], observed: false });
    this.#addSub('http_req_duration{expected_response:true}');
    for (const [full, raw] of Object.entries(thresholds)) {
      const list = parseThresholdList(full, raw, parseMs);
      const { name, tags } = parseMetricName(full);
      const parent = this.#metrics.get(name);
      if (!parent) throw new K6RunError(EXIT.invalidConfig, `invalid threshold defined on ${full}; reason: no metric name "${full}" found`);
      validateAggregations(full, parent.def.type, list);
      const tracked = tags ? this.#addSub(full) : parent;
      tracked.thresholds = list;
      tracked.lastFailed = list.map(() => false);
      tracked.observed = true;
      parent.observed = true;
    }
  }

  #addSub(full: string): Tracked {
    const { name, tags } = parseMetricName(full);
    const parent = this.#metrics.get(name)!;
    const existing = (this.#subs.get(name) ?? []).find((s) => s.key === full);
    if (existing) return existing;
    const sub: Tracked = { def: parent.def, key: full, sink: newSink(parent.def.type), filter: tags!, thresholds: [], lastFailed: [], observed: false };
    this.#subs.set(name, [...(this.#subs.get(name) ?? []), sub]);
    return sub;
  }

  /** Registers a metric a VU created after start-up (k6 allows it; it then has no thresholds). */
  define(def: MetricDef): void {
    if (!this.#metrics.has(def.name)) this.#metrics.set(def.name, { def, key: def.name, sink: newSink(def.type), thresholds: [], lastFailed: [], observed: false });
  }

  ingest(samples: readonly Sample[]): void {
    for (const s of samples) {
      const m = this.#metrics.get(s.metric);
      if (!m) continue;
      m.sink.add(s.value);
      m.observed = true;
      for (const sub of this.#subs.get(s.metric) ?? []) {
        if (Object.entries(sub.filter!).every(([k, v]) => s.tags[k] === v)) { sub.sink.add(s.value); sub.observed = true; }
      }
    }
  }

  #withThresholds(): Tracked[] {
    return [...this.#metrics.values(), ...[...this.#subs.values()].flat()].filter((m) => m.thresholds.length > 0);
  }

  /** Runs the thresholds; during the run (`final` false) empty sinks are skipped, as k6 does. */
  evaluate(durationMs: number, final: boolean): { breached: string[]; abort: boolean } {
    const breached: string[] = [];
    let abort = false;
    for (const m of this.#withThresholds()) {
      if (!final && m.sink.isEmpty()) continue;
      const percentiles = m.thresholds.filter((t) => t.expr.aggregation === 'p').map((t) => t.expr.percentile!);
      const values = m.sink.thresholdValues(durationMs, percentiles);
      let failed = false;
      let errored = false;
      for (const [i, t] of m.thresholds.entries()) {
        const r = runThreshold(t.expr, values);
        if (r.kind === 'error') { this.log(`Threshold error on ${m.key}: ${r.message}`); errored = true; break; }
        m.lastFailed[i] = r.kind === 'fail';
        if (r.kind === 'fail') {
          failed = true;
          if (t.abortOnFail && (t.delayAbortEvalMs === undefined || t.delayAbortEvalMs < durationMs)) abort = true;
        }
      }
      if (failed && !errored) breached.push(m.key);
    }
    return { breached: breached.sort(), abort };
  }

  /** The summary data's `metrics`: observed metrics and sub-metrics with their values and thresholds. */
  summary(durationMs: number, trendStats: readonly string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of [...this.#metrics.values(), ...[...this.#subs.values()].flat()]) {
      if (!m.observed) continue;
      out[m.key] = {
        type: m.def.type, contains: m.def.contains, values: m.sink.summaryValues(durationMs, trendStats),
        ...(m.thresholds.length ? { thresholds: Object.fromEntries(m.thresholds.map((t, i) => [t.expr.source, { ok: !m.lastFailed[i] }])) } : {}),
      };
    }
    return out;
  }
}
