/**
 * Worker time: what the job tests make the workers of a serverless endpoint do, planned as an
 * upper bound and priced from the catalog's serverless prices (platform-notes, "Catalog
 * entries": a GPU type's `price.serverless`, USD per hour per GPU, "when the type is in a
 * serverless pool"; its `pool` names the tier an endpoint's `gpuIds` asks for).
 *
 * A test declares the jobs it sends (`creates({ work: jobWork(...) })`, lib/plan.ts `Creates`):
 * how many job attempts and how much handler time they ask for at most. The bound adds, per
 * attempt, an allowance for a worker's start and idle time ({@link WORKER_ALLOWANCE}): the spec
 * bounds neither ("Moves from `IN_QUEUE` to `IN_PROGRESS` ...: not shown"), so these are the
 * plan's stated assumptions, not the platform's figures. A job's `executionTime` and `delayTime`
 * are not read: their unit is "not shown".
 */
import { needList, type Need } from './needs.js';

/** What the bound reads of a test's declaration (lib/plan.ts `Creates`, which holds `work`). */
interface Declared { needs?: Need | readonly Need[]; work?: JobWork }
/** What it reads of the catalog's prices (lib/plan.ts `PriceTable`). */
type PriceTable = { serverless?: Record<string, number> };

/** Jobs a test sends to a worker endpoint: attempts (each automatic retry one more), and the handler time they ask for in all (ms). */
export interface JobWork { jobs: number; ms: number }

/**
 * Assumptions of the bound, per job attempt: a worker started for it (an image already pulled,
 * 60 s) and kept until its idle timeout (the provisioned endpoints' `idleTimeout`, 5 s).
 */
export const WORKER_ALLOWANCE = { startMs: 60_000, idleMs: 5_000 } as const;

/**
 * Attempts a failing job is counted for: the spec's queue-based endpoints retry "on failure"
 * without saying how often, so the plan assumes the first attempt and two automatic retries.
 */
export const FAILING_ATTEMPTS = 3;

/**
 * The work of a test that needs a worker endpoint and declares none: a few quick jobs (echo
 * inputs, sleeps of seconds; the most such a test sends is six, a failing job's three attempts
 * among them). A test that sends more or longer jobs declares its own.
 */
export const QUICK_WORK: JobWork = { jobs: 6, ms: 30_000 };

/** One job as {@link jobWork} counts it: its handler time (ms), and how often it runs (a failing job {@link FAILING_ATTEMPTS} times per submission). */
export type JobSpec = number | { ms: number; runs?: number; failing?: boolean };

/** The work of a test's jobs: `jobWork(240_000, 1_000)`, `jobWork({ ms: 10_000, failing: true })`. */
export function jobWork(...jobs: JobSpec[]): JobWork {
  let count = 0;
  let ms = 0;
  for (const j of jobs) {
    const spec = typeof j === 'number' ? { ms: j } : j;
    const runs = (spec.runs ?? 1) * (spec.failing ? FAILING_ATTEMPTS : 1);
    count += runs;
    ms += spec.ms * runs;
  }
  return { jobs: count, ms };
}

/** The work a test is planned for: its declaration, else {@link QUICK_WORK} when it needs a worker endpoint, else none. */
export function workOf(test: Declared): JobWork | undefined {
  if (test.work) return test.work;
  const needs = needList(test.needs);
  return needs.includes('workerEndpoint') || needs.includes('holdEndpoint') ? QUICK_WORK : undefined;
}

/** The planned worker time of a run: the tier its endpoints ask for, the work, the bound and its price ("unpriced": no serverless price for the tier). */
export interface WorkerTimePlan {
  /** The endpoints' GPU tier (`gpuIds`); undefined when unknown (CPC_ENDPOINT_ID's, not listed by GraphQL) or when two endpoints differ. */
  tier?: string;
  jobs: number;
  /** Handler time the jobs ask for, ms. */
  workMs: number;
  /** The bound: the work and, per attempt, {@link WORKER_ALLOWANCE}, ms. */
  boundMs: number;
  /** USD per hour of one worker (one GPU): the tier's dearest serverless price; absent when the catalog has none. */
  usdPerHour?: number;
  /** USD for the bound; absent when unpriced (never a zero for a missing price). */
  estimatedCostUsd?: number;
}

/** The bound of some work: its handler time and the start and idle allowance of each attempt. */
export const boundMs = (w: JobWork): number => w.ms + w.jobs * (WORKER_ALLOWANCE.startMs + WORKER_ALLOWANCE.idleMs);

/**
 * Plans the worker time of `tests` (those that run) on endpoints of `tier` (undefined: not the
 * run's own, its tier unknown), priced from `prices`. Undefined when no test sends jobs.
 */
export function planWorkerTime(tests: readonly Declared[], tier: string | undefined, prices: PriceTable | undefined): WorkerTimePlan | undefined {
  const works = tests.map(workOf).filter((w): w is JobWork => w !== undefined);
  if (works.length === 0) return undefined;
  const total = works.reduce((a, w) => ({ jobs: a.jobs + w.jobs, ms: a.ms + w.ms }), { jobs: 0, ms: 0 });
  const bound = boundMs(total);
  const hourly = tier === undefined ? undefined : tierPrice(tier, prices);
  return { ...(tier ? { tier } : {}), jobs: total.jobs, workMs: total.ms, boundMs: bound,
    ...(hourly !== undefined ? { usdPerHour: hourly, estimatedCostUsd: hourly * bound / 3_600_000 } : {}) };
}

/**
 * USD per hour of a worker of `tier`: the pool's dearest serverless price; a tier list
 * (`AMPERE_16,AMPERE_24`, a worker on any of them) its dearest, undefined when one has none.
 */
export function tierPrice(tier: string, prices: PriceTable | undefined): number | undefined {
  const each = tier.split(',').map((t) => prices?.serverless?.[t.trim()]);
  return each.length === 0 || each.some((p) => p === undefined) ? undefined : Math.max(...(each as number[]));
}

/**
 * The dearest serverless price of each pool (USD per hour per GPU) among catalog GPU types:
 * an endpoint of a tier may be given any type of its pool. Types without a `pool` or without
 * `price.serverless` add nothing.
 */
export function serverlessPrices(gpus: readonly unknown[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of gpus) {
    const { pool, price } = (g ?? {}) as { pool?: unknown; price?: unknown };
    const usd = price && typeof price === 'object' ? (price as { serverless?: unknown }).serverless : undefined;
    if (typeof pool !== 'string' || pool === '' || typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0) continue;
    out[pool] = Math.max(out[pool] ?? 0, usd);
  }
  return out;
}

/** `≤ 62.5 worker-minutes (AMPERE_16, 140 job attempts)`: the bound in words, priced or unpriced. */
export function workerTimeText(w: WorkerTimePlan): string {
  const minutes = (w.boundMs / 60_000).toFixed(1);
  const price = w.estimatedCostUsd !== undefined ? `USD ${w.estimatedCostUsd.toFixed(2)} at most (USD ${w.usdPerHour!.toFixed(2)}/h per worker)` : 'unpriced (the catalog gives no serverless price for the tier)';
  return `≤ ${minutes} worker-minutes on ${w.tier ?? "the given endpoint's workers (tier unknown)"} for ${w.jobs} job attempt(s): ${price}`;
}

/** Two plans as one (the job endpoint's and the hold endpoint's, or two shards'): priced only when both are. */
export function addWorkerTime(a: WorkerTimePlan | undefined, b: WorkerTimePlan | undefined): WorkerTimePlan | undefined {
  if (!a || !b) return a ?? b;
  const tier = a.tier === b.tier ? a.tier : undefined;
  const priced = a.estimatedCostUsd !== undefined && b.estimatedCostUsd !== undefined;
  const hourly = priced ? Math.max(a.usdPerHour ?? 0, b.usdPerHour ?? 0) : undefined;
  return { ...(tier ? { tier } : {}), jobs: a.jobs + b.jobs, workMs: a.workMs + b.workMs, boundMs: a.boundMs + b.boundMs,
    ...(priced ? { usdPerHour: hourly!, estimatedCostUsd: a.estimatedCostUsd! + b.estimatedCostUsd! } : {}) };
}

/** How the bound is made, in one line for the plan and the report. */
export const WORKER_TIME_BASIS = `the handler time the job tests declare, plus ${WORKER_ALLOWANCE.startMs / 1000} s of start and ${WORKER_ALLOWANCE.idleMs / 1000} s of idle per job attempt, a failing job counted ${FAILING_ATTEMPTS} times`;

/**
 * What the run's record shows of the endpoints it provisioned: how long they lived (creation
 * to deletion), and so how many worker-minutes their workers can have run at most (each lived
 * minute times its `workersMax`), priced like the plan. Observed from the record, not billed
 * time: the platform's job times have units "not shown".
 */
export interface ObservedWorkerTime {
  endpoints: number;
  endpointMinutes: number;
  workerMinutesAtMost: number;
  /** USD for those worker-minutes; absent when an endpoint's tier has no serverless price. */
  estimatedCostUsd?: number;
}

/** An endpoint as the record holds it: its tier, its workersMax, when it was made and deleted (ms). */
export interface EndpointLife { gpuIds?: string; workersMax?: number; at?: number; deletedAt?: number }

/** The observed bound of `endpoints` (those the run provisioned), at `now` for one not deleted; undefined for none. */
export function observedWorkerTime(endpoints: readonly EndpointLife[], prices: PriceTable | undefined, now: number): ObservedWorkerTime | undefined {
  if (endpoints.length === 0) return undefined;
  let endpointMinutes = 0;
  let workerMinutes = 0;
  let cost: number | undefined = 0;
  for (const e of endpoints) {
    const minutes = Math.max(0, ((e.deletedAt ?? now) - (e.at ?? now)) / 60_000);
    const workers = minutes * (e.workersMax ?? 0);
    endpointMinutes += minutes;
    workerMinutes += workers;
    const hourly = e.gpuIds === undefined ? undefined : tierPrice(e.gpuIds, prices);
    cost = hourly === undefined || cost === undefined ? undefined : cost + hourly * workers / 60;
  }
  return { endpoints: endpoints.length, endpointMinutes, workerMinutesAtMost: workerMinutes, ...(cost !== undefined ? { estimatedCostUsd: cost } : {}) };
}
