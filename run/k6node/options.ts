/**
 * k6 `options` the Node path understands, normalised into scenarios. Supported executors:
 * `shared-iterations`, `per-vu-iterations`, `constant-vus`; the `vus`/`iterations`/`duration`
 * shortcuts map to them as k6 maps them. Anything else is refused as invalid config (exit 104),
 * so a script never runs differently than on k6 without saying so.
 */
import { parseDuration } from './duration.js';
import { EXIT } from './exit-codes.js';
import { K6RunError } from '../../lib/errors.js';

export type Executor = 'shared-iterations' | 'per-vu-iterations' | 'constant-vus';

export interface Scenario {
  name: string;
  executor: Executor;
  vus: number;
  /** Total (shared) or per VU; unused by constant-vus. */
  iterations: number;
  /** When the executor stops starting iterations, after its start: `duration` or `maxDuration`. */
  durationMs: number;
  startTimeMs: number;
  gracefulStopMs: number;
  exec: string;
  env: Record<string, string>;
  tags: Record<string, string>;
}

export interface RunOptions {
  scenarios: Scenario[];
  thresholds: Record<string, unknown>;
  summaryTrendStats: string[];
  setupTimeoutMs: number;
  teardownTimeoutMs: number;
  batch: number;
  batchPerHost: number;
}

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
const invalid = (m: string): K6RunError => new K6RunError(EXIT.invalidConfig, m);

function positiveInt(value: unknown, what: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || (value as number) < 0) throw invalid(`${what} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return value as number;
}

const stringMap = (v: unknown, what: string): Record<string, string> => {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Object.values(v).some((x) => typeof x !== 'string')) throw invalid(`${what} must map names to strings`);
  return v as Record<string, string>;
};

function scenarioOf(name: string, raw: Record<string, unknown>): Scenario {
  const executor = raw.executor;
  if (executor !== 'shared-iterations' && executor !== 'per-vu-iterations' && executor !== 'constant-vus') {
    throw invalid(`scenario ${name}: executor ${JSON.stringify(executor)} is not supported by the Node path (supported: shared-iterations, per-vu-iterations, constant-vus); run it with k6`);
  }
  const vus = positiveInt(raw.vus, `scenario ${name}: vus`, 1);
  if (vus < 1) throw invalid(`scenario ${name}: vus must be at least 1`);
  const isConstant = executor === 'constant-vus';
  if (isConstant && raw.duration === undefined) throw invalid(`scenario ${name}: constant-vus needs a duration`);
  const iterations = positiveInt(raw.iterations, `scenario ${name}: iterations`, 1);
  if (executor === 'shared-iterations' && iterations < vus) throw invalid(`scenario ${name}: the number of iterations (${iterations}) can't be less than the number of VUs (${vus})`);
  return {
    name, executor, vus, iterations,
    durationMs: isConstant ? parseDuration(raw.duration, `${name}.duration`) : parseDuration(raw.maxDuration ?? '10m', `${name}.maxDuration`),
    startTimeMs: parseDuration(raw.startTime ?? 0, `${name}.startTime`),
    gracefulStopMs: parseDuration(raw.gracefulStop ?? '30s', `${name}.gracefulStop`),
    exec: typeof raw.exec === 'string' ? raw.exec : 'default',
    env: stringMap(raw.env, `${name}.env`),
    tags: stringMap(raw.tags, `${name}.tags`),
  };
}

/** Normalises a script's `options` (after `exportedFunctions` were collected) into run options. */
export function normaliseOptions(options: Record<string, unknown> | undefined, exportedFunctions: readonly string[]): RunOptions {
  const o = options ?? {};
  let scenarios: Scenario[];
  if (o.scenarios !== undefined) {
    if (typeof o.scenarios !== 'object' || o.scenarios === null) throw invalid('options.scenarios must be an object');
    scenarios = Object.entries(o.scenarios as Record<string, Record<string, unknown>>).map(([n, s]) => scenarioOf(n, s));
  } else if (o.stages !== undefined) {
    throw invalid('options.stages (ramping-vus) is not supported by the Node path; run it with k6');
  } else if (o.duration !== undefined && o.iterations === undefined) {
    scenarios = [scenarioOf('default', { executor: 'constant-vus', vus: o.vus ?? 1, duration: o.duration })];
  } else {
    scenarios = [scenarioOf('default', { executor: 'shared-iterations', vus: o.vus ?? 1, iterations: o.iterations ?? 1, ...(o.duration !== undefined ? { maxDuration: o.duration } : {}) })];
  }
  for (const s of scenarios) if (!exportedFunctions.includes(s.exec)) throw invalid(`executor ${s.name}: function '${s.exec}' not found in exports`);
  const trendStats = o.summaryTrendStats ?? DEFAULT_TREND_STATS;
  if (!Array.isArray(trendStats) || trendStats.some((s) => typeof s !== 'string')) throw invalid('options.summaryTrendStats must be an array of strings');
  return {
    scenarios,
    thresholds: (o.thresholds ?? {}) as Record<string, unknown>,
    summaryTrendStats: trendStats as string[],
    setupTimeoutMs: parseDuration(o.setupTimeout ?? '60s', 'setupTimeout'),
    teardownTimeoutMs: parseDuration(o.teardownTimeout ?? '60s', 'teardownTimeout'),
    batch: Math.max(1, positiveInt(o.batch, 'batch', 20)),
    // k6 reads batchPerHost 0 as "no per-host limit".
    batchPerHost: positiveInt(o.batchPerHost, 'batchPerHost', 6) || Number.POSITIVE_INFINITY,
  };
}
