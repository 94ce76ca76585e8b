/**
 * One load summary from the summaries of a scenario's execution segments (k6 `--execution-segment`,
 * as k6-operator runs a `TestRun` with `parallelism` > 1): each k6 process evaluates its own
 * thresholds on its own share, and nothing joins them, so the report combines them here.
 *
 * - A threshold holds when it held in every segment (each process is a run of its own that exits
 *   99 on a breach); a threshold missing from a segment counts as not held.
 * - Checks add up by name (passes and fails).
 * - Counters add up (`count`, and `rate`, per second over the same wall time); Rate metrics add
 *   their `passes` and `fails` and recompute `rate`; gauges keep the largest `value`, `min` and
 *   `max` the extremes. Trend percentiles cannot be merged without the samples, so a trend keeps
 *   each statistic's largest value across segments (an upper bound: `min` keeps the smallest).
 * - Series points are joined in time order; the run starts with the earliest segment and lasts
 *   as long as the longest.
 */
import type { LoadSummary, MetricStats } from '../../reports/load-model.js';
import { ConfigError, InternalError } from '../../lib/errors.js';

/** The execution segments of an `n`-way split and their sequence, as k6 and k6-operator write them. */
export function executionSegments(n: number): { segments: string[]; sequence: string } {
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`a split needs a whole number of segments, got ${n}`, 'segments');
  const at = (i: number): string => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  return { segments: Array.from({ length: n }, (_, i) => `${at(i)}:${at(i + 1)}`), sequence: Array.from({ length: n + 1 }, (_, i) => at(i)).join(',') };
}

function combineMetric(parts: MetricStats[]): MetricStats {
  const out: MetricStats = {};
  const keys = new Set(parts.flatMap((p) => Object.keys(p)));
  const values = (k: string): number[] => parts.map((p) => p[k]).filter((v): v is number => typeof v === 'number');
  const sum = (k: string): number => values(k).reduce((a, b) => a + b, 0);
  const isRate = keys.has('passes') && keys.has('fails');
  const isCounter = keys.has('count') && !keys.has('p95') && !keys.has('avg');
  for (const k of keys) {
    const v = values(k);
    if (v.length === 0) { out[k] = null; continue; }
    if (isRate && (k === 'passes' || k === 'fails')) out[k] = sum(k);
    else if (isCounter && (k === 'count' || k === 'rate')) out[k] = Math.round(sum(k) * 1000) / 1000;
    else out[k] = k === 'min' ? Math.min(...v) : Math.max(...v);
  }
  if (isRate) {
    const total = sum('passes') + sum('fails');
    out.rate = total > 0 ? Math.round((sum('passes') / total) * 1000) / 1000 : null;
  }
  return out;
}

/** Combines the summaries of one scenario's segments (`segments[i]` names `parts[i]`'s share). */
export function combineSummaries(parts: LoadSummary[], segments: string[]): LoadSummary {
  const first = parts[0];
  if (!first) throw new InternalError('no segment summaries to combine');
  const scenarios = new Set(parts.map((p) => p.scenario));
  if (scenarios.size !== 1) throw new InternalError(`segment summaries of different scenarios: ${[...scenarios].join(', ')}`);
  const thresholds: LoadSummary['thresholds'] = {};
  for (const name of new Set(parts.flatMap((p) => Object.keys(p.thresholds)))) {
    thresholds[name] = { ok: parts.every((p) => p.thresholds[name]?.ok === true) };
  }
  const checks = new Map<string, { name: string; passes: number; fails: number }>();
  for (const c of parts.flatMap((p) => p.checks)) {
    const into = checks.get(c.name) ?? { name: c.name, passes: 0, fails: 0 };
    into.passes += c.passes;
    into.fails += c.fails;
    checks.set(c.name, into);
  }
  const metrics: LoadSummary['metrics'] = {};
  for (const name of [...new Set(parts.flatMap((p) => Object.keys(p.metrics)))].sort()) {
    metrics[name] = combineMetric(parts.map((p) => p.metrics[name]).filter((m): m is MetricStats => m !== undefined));
  }
  const series: NonNullable<LoadSummary['series']> = {};
  for (const p of parts) for (const [k, points] of Object.entries(p.series ?? {})) series[k] = [...(series[k] ?? []), ...points].sort((a, b) => a[0] - b[0]);
  const starts = parts.map((p) => p.startedAt).filter((s): s is string => s !== undefined).sort();
  const durations = parts.map((p) => p.durationMs).filter((d): d is number => d !== undefined);
  return {
    scenario: first.scenario,
    description: `${first.description ?? first.scenario} Combined from ${parts.length} k6 execution segments (${segments.join(', ')}).`,
    ...(first.rules ? { rules: first.rules } : {}),
    ...(starts[0] ? { startedAt: starts[0] } : {}),
    ...(durations.length ? { durationMs: Math.max(...durations) } : {}),
    thresholds, checks: [...checks.values()], metrics,
    ...(Object.keys(series).length ? { series } : {}),
  };
}
