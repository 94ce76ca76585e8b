/**
 * Load results in the report. A k6 scenario's `handleSummary` writes one summary per
 * scenario to `reports/out/load/*.json` (an object, or an array of them); the report keeps
 * the fields below and nothing else.
 */

/** Latency and other statistics of one metric (`p50`, `p90`, `p95`, `p99`, `max`, `avg`...), null when k6 had none. */
export type MetricStats = Record<string, number | null>;

/** A time series of `[milliseconds since the scenario started, value]` points. */
export type Series = [number, number][];

export interface LoadSummary {
  scenario: string;
  description?: string;
  /** Rule ids the scenario verifies: a failed threshold fails them. */
  rules?: string[];
  startedAt?: string;
  durationMs?: number;
  thresholds: Record<string, { ok: boolean }>;
  checks: { name: string; passes: number; fails: number }[];
  metrics: Record<string, MetricStats>;
  /** `ratelimitRemaining`: the `RateLimit` header's remaining count `r` over time. */
  series?: Record<string, Series>;
}

export interface LoadScenarioResult {
  /** Where the summary came from, relative to the project root when inside it. */
  file: string;
  /** When the summary file was written: load results may be older than the contract run. */
  writtenAt: string;
  /** True when every threshold held. */
  ok: boolean;
  failedThresholds: string[];
  summary: LoadSummary;
}

export interface LoadSection {
  dir: string;
  scenarios: LoadScenarioResult[];
  /** Files that could not be read as load summaries, and why. */
  errors: { file: string; message: string }[];
}

/** The summary fields the report keeps (everything else in a summary file is dropped). */
export const LOAD_SUMMARY_FIELDS = ['scenario', 'description', 'rules', 'startedAt', 'durationMs', 'thresholds', 'checks', 'metrics', 'series'] as const;
