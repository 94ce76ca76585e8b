/**
 * `handleSummary` for every scenario: k6's end-of-test data becomes the JSON summary the
 * conformance report reads (`reports/out/load/<scenario>.json`, shape in
 * reports/load-model.ts) plus a short text summary on stdout. Pure ECMAScript.
 */
export interface K6Metric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains?: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
export interface K6Check { name: string; passes: number; fails: number }
export interface K6Group { name: string; path: string; groups: K6Group[]; checks: K6Check[] }
/** The fields of k6's summary data the scenarios use (k6 passes more). */
export interface K6SummaryData {
  metrics: Record<string, K6Metric>;
  root_group: K6Group;
  state: { testRunDurationMs: number };
  setup_data?: unknown;
}

/** A time series kept as one gauge per time slice, `<prefix>NN` (k6 has no other way out of a VU). */
export interface SeriesSpec { prefix: string; sliceMs: number }

export interface ScenarioMeta {
  scenario: string;
  description: string;
  /** Rule ids whose MUST the thresholds enforce: a failed threshold fails them in the report. */
  rules: string[];
  series?: Record<string, SeriesSpec>;
}

/** The trend statistics every scenario asks k6 for (`options.summaryTrendStats`). */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)'];

const TREND_KEYS: Record<string, string> = { 'p(50)': 'p50', 'p(90)': 'p90', 'p(95)': 'p95', 'p(99)': 'p99', avg: 'avg', min: 'min', max: 'max', med: 'med' };

function metricValues(m: K6Metric): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(m.values)) {
    const key = m.type === 'trend' ? TREND_KEYS[k] ?? k : k;
    out[key] = typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null;
  }
  return out;
}

function flattenChecks(group: K6Group, prefix: string, into: K6Check[]): void {
  for (const c of group.checks) into.push({ name: prefix ? `${prefix} › ${c.name}` : c.name, passes: c.passes, fails: c.fails });
  for (const g of group.groups) flattenChecks(g, prefix ? `${prefix} › ${g.name}` : g.name, into);
}

/** The report's summary of one scenario run, by `runner` (k6, or the Node path that sets K6NODE=1). */
export function toLoadSummary(data: K6SummaryData, meta: ScenarioMeta, nowMs: number, runner: 'k6' | 'node' = 'k6'): Record<string, unknown> {
  const seriesPrefixes = Object.values(meta.series ?? {}).map((s) => s.prefix);
  const thresholds: Record<string, { ok: boolean }> = {};
  const metrics: Record<string, Record<string, number | null>> = {};
  for (const name of Object.keys(data.metrics).sort()) {
    const m = data.metrics[name]!;
    for (const [expr, t] of Object.entries(m.thresholds ?? {})) thresholds[`${name} ${expr}`] = { ok: t.ok };
    if (!seriesPrefixes.some((p) => name.startsWith(p))) metrics[name] = metricValues(m);
  }
  const checks: K6Check[] = [];
  flattenChecks(data.root_group, '', checks);
  const series: Record<string, [number, number][]> = {};
  for (const [key, spec] of Object.entries(meta.series ?? {})) {
    const points: [number, number][] = [];
    for (const [name, m] of Object.entries(data.metrics)) {
      if (!name.startsWith(spec.prefix) || m.type !== 'gauge' || !Number.isFinite(m.values.value)) continue;
      points.push([Number(name.slice(spec.prefix.length)) * spec.sliceMs, m.values.value!]);
    }
    if (points.length) series[key] = points.sort((a, b) => a[0] - b[0]);
  }
  const durationMs = Math.max(0, Math.round(data.state.testRunDurationMs));
  return {
    scenario: meta.scenario, runner, description: meta.description, rules: meta.rules,
    startedAt: new Date(nowMs - durationMs).toISOString(), durationMs,
    thresholds, checks, metrics, ...(Object.keys(series).length ? { series } : {}),
  };
}

/** A few lines for the terminal: thresholds, then checks with failures. */
export function summaryText(summary: Record<string, unknown>): string {
  const thresholds = summary.thresholds as Record<string, { ok: boolean }>;
  const checks = summary.checks as K6Check[];
  const failed = Object.entries(thresholds).filter(([, t]) => !t.ok).map(([n]) => n);
  const lines = [`scenario ${String(summary.scenario)} (${String(summary.runner)}): ${failed.length ? `FAILED (${failed.length} threshold${failed.length > 1 ? 's' : ''})` : 'thresholds met'} in ${String(summary.durationMs)} ms`];
  for (const [name, t] of Object.entries(thresholds)) lines.push(`  ${t.ok ? '✓' : '✗'} ${name}`);
  for (const c of checks) lines.push(`  ${c.fails === 0 ? '✓' : '✗'} ${c.name} (${c.passes} passed, ${c.fails} failed)`);
  return lines.join('\n') + '\n';
}

/** What `handleSummary` returns: the JSON file (CPC_LOAD_OUT_DIR, default reports/out/load) and stdout. */
export function summaryOutputs(data: K6SummaryData, meta: ScenarioMeta, env: Record<string, string | undefined>): Record<string, string> {
  const summary = toLoadSummary(data, meta, Date.now(), env.K6NODE === '1' ? 'node' : 'k6');
  const dir = (env.CPC_LOAD_OUT_DIR ?? 'reports/out/load').replace(/\/+$/, '');
  return { [`${dir}/${meta.scenario}.json`]: JSON.stringify(summary, null, 2) + '\n', stdout: summaryText(summary) };
}
