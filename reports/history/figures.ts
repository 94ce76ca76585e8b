/**
 * The figures a history charts night by night: the load scenarios' key figures (the summaries'
 * metric names, reports/load-model.ts) and, when a report has one, its cost section. A figure
 * no report of the window holds is left out, so a folder of older reports charts what it has.
 */
import type { ConformanceReport } from '../model.js';

export interface FigureDef {
  /** The chart group: what a reader looks for. */
  group: string;
  scenario: string;
  /** The metric's name as k6 writes it (a submetric with its tags: `http_req_duration{probe:during-storm}`). */
  metric: string;
  /** The statistic: `p50`, `p95`, `max`, `count`... */
  stat: string;
  label: string;
  unit: string;
}

/** One figure's value in each run of the window (null when that run did not measure it). */
export interface FigureSeries { id: string; group: string; label: string; unit: string; values: (number | null)[] }

const LATENCY = '/runsync and /run latency';
const PAYLOAD = 'Payload limits';
const RATE = 'Rate limit';

/** The figures that answer "does it hold under load?", scenario by scenario (load/*.ts). */
export const KEY_FIGURES: readonly FigureDef[] = [
  { group: LATENCY, scenario: 'payload-limits', metric: 'payload_acceptance_duration', stat: 'p95', label: 'a body under the limit accepted, p95', unit: 'ms' },
  { group: LATENCY, scenario: 'payload-limits', metric: 'http_req_duration{probe:during-storm}', stat: 'p95', label: '/health and a small /run during oversized bodies, p95', unit: 'ms' },
  { group: LATENCY, scenario: 'wait-range', metric: 'http_req_duration', stat: 'p50', label: '/runsync answer (wait range), p50', unit: 'ms' },
  { group: LATENCY, scenario: 'wait-range', metric: 'wait_lateness_virtual_ms', stat: 'p95', label: '/runsync answer after its wait elapsed, lateness p95', unit: 'ms' },
  { group: PAYLOAD, scenario: 'payload-limits', metric: 'payload_rejection_duration', stat: 'p95', label: 'an oversized body refused, p95', unit: 'ms' },
  { group: PAYLOAD, scenario: 'payload-limits', metric: 'payload_refusals', stat: 'count', label: 'oversized bodies refused', unit: '' },
  { group: RATE, scenario: 'rate-limit-headers', metric: 'http_req_duration{scenario:bursts}', stat: 'p95', label: 'answers during bursts, p95', unit: 'ms' },
  { group: RATE, scenario: 'rate-limit-headers', metric: 'ratelimit_refusals', stat: 'count', label: '429 refusals', unit: '' },
  { group: RATE, scenario: 'rate-limit-headers', metric: 'ratelimit_recoveries', stat: 'count', label: 'successes after waiting Retry-After', unit: '' },
  { group: RATE, scenario: 'rate-limit-headers', metric: 'ratelimit_retry_after_s', stat: 'max', label: 'Retry-After, max', unit: 's' },
];

/** Per-operation submetrics (`{op:runsync}`, `{op:run}`), when a scenario's thresholds make k6 report them. */
const OP_TAG = /\{op:(runsync|run)\}$/;

function value(report: ConformanceReport, scenario: string, metric: string, stat: string): number | null {
  const sc = report.load?.scenarios.find((s) => s.summary.scenario === scenario);
  const v = sc?.summary.metrics[metric]?.[stat];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The per-operation latencies any report of the window has, as figures (p95). */
function opFigures(reports: readonly ConformanceReport[]): FigureDef[] {
  const seen = new Map<string, FigureDef>();
  for (const r of reports) for (const sc of r.load?.scenarios ?? []) for (const metric of Object.keys(sc.summary.metrics)) {
    const op = OP_TAG.exec(metric)?.[1];
    const key = `${sc.summary.scenario}/${metric}`;
    if (op && !seen.has(key)) seen.set(key, { group: LATENCY, scenario: sc.summary.scenario, metric, stat: 'p95', label: `/${op}: ${metric.replace(OP_TAG, '')}, p95`, unit: 'ms' });
  }
  return [...seen.values()];
}

/** The key load figures over the runs, those measured at least once. */
export function loadFigures(reports: readonly ConformanceReport[]): FigureSeries[] {
  return [...KEY_FIGURES, ...opFigures(reports)]
    .map((f) => ({ id: `${f.scenario}/${f.metric}/${f.stat}`, group: f.group, label: f.label, unit: f.unit, values: reports.map((r) => value(r, f.scenario, f.metric, f.stat)) }))
    .filter((s) => s.values.some((v) => v !== null));
}

/** Whether each scenario met its thresholds, run by run (null: the run has no summary of it). */
export function thresholdStrips(reports: readonly ConformanceReport[]): { scenario: string; ok: (boolean | null)[] }[] {
  const names = [...new Set(reports.flatMap((r) => r.load?.scenarios.map((s) => s.summary.scenario) ?? []))];
  return names.map((scenario) => ({ scenario, ok: reports.map((r) => r.load?.scenarios.find((s) => s.summary.scenario === scenario)?.ok ?? null) }));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The numbers of a cost section, by path (`total.usd`), two levels deep. */
function costNumbers(cost: unknown, prefix = '', depth = 0): [string, number][] {
  if (!isRecord(cost) || depth > 2) return [];
  return Object.entries(cost).flatMap(([k, v]) => (typeof v === 'number' && Number.isFinite(v) ? [[`${prefix}${k}`, v] as [string, number]] : costNumbers(v, `${prefix}${k}.`, depth + 1)));
}

/**
 * The cost section's figures, when some report of the window has one (2.2 and later,
 * reports/cost-model.ts). It is read as a plain object under `cost`, so a later version's
 * additions chart too: every number in it, charted by its path.
 */
export function costFigures(reports: readonly ConformanceReport[]): FigureSeries[] | undefined {
  const costs = reports.map((r) => (r as unknown as { cost?: unknown }).cost);
  if (costs.every((c) => c === undefined)) return undefined;
  const perRun = costs.map((c) => new Map(costNumbers(c)));
  const paths = [...new Set(perRun.flatMap((m) => [...m.keys()]))];
  return paths.map((path) => ({ id: `cost/${path}`, group: 'Cost', label: path, unit: '', values: perRun.map((m) => m.get(path) ?? null) }));
}
