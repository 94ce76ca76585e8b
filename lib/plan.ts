/**
 * What a run creates on its target, declared by the tests and summed into a plan: the one
 * vocabulary of preflight's plan, the budgets, the creation guard and the report's cost section.
 *
 * A test declares what it creates when the target conforms (`rules('A.RULE', creates({...}))`,
 * contract/support/rules.ts). Pooled resources ({@link POOLS}) are borrowed, not owned: on a
 * deployment one of each shape serves every test of a worker (restored after a test that
 * changes it); in an emulator world each test has its own, as before.
 */

import { unmet, type Has, type Need } from './needs.js';
import type { JobWork, WorkerTimePlan } from './worker-time.js';

export type { Need };

/** A shared resource by shape; what each is made of is {@link POOLS}. */
export type PoolName = 'gpuPod' | 'gpuPersistentPod' | 'gpuNetworkPod' | 'cpuPod' | 'cpuNetworkPod' | 'networkVolume' | 'otherNetworkVolume' | 'template';

/** Counts by kind; pods are split into GPU and CPU pods. */
export interface Counts {
  gpuPods: number;
  cpuPods: number;
  networkVolumes: number;
  endpoints: number;
  /** Endpoints created with (or updated to) `workersMin` > 0: an always-on worker each on a real platform. */
  warmEndpoints: number;
  templates: number;
  secrets: number;
}

export type CountKind = keyof Counts;
export const COUNT_KINDS: readonly CountKind[] = ['gpuPods', 'cpuPods', 'networkVolumes', 'endpoints', 'warmEndpoints', 'templates', 'secrets'];


/** What one test creates when the target conforms, and the pooled resources it borrows. */
export interface Creates extends Partial<Counts> {
  pools?: PoolName[];
  /**
   * What it may create besides (a conforming target may accept what the test sends, or the
   * emulator makes more than a deployment): allowed by the guard, planned as an upper bound.
   */
  maybe?: Partial<Counts>;
  /** It runs only with these (else it skips, creating nothing): the plan leaves it out without (lib/needs.ts). */
  needs?: Need | Need[];
  /** The jobs it sends to a worker endpoint, at most (lib/worker-time.ts `jobWork`): the plan's worker-time bound. */
  work?: JobWork;
}

/** What each pooled resource is, counted as it is created (a network pod needs the pooled volume). */
export const POOLS: Record<PoolName, Creates> = {
  gpuPod: { gpuPods: 1 },
  gpuPersistentPod: { gpuPods: 1 },
  gpuNetworkPod: { gpuPods: 1, pools: ['networkVolume'] },
  cpuPod: { cpuPods: 1 },
  cpuNetworkPod: { cpuPods: 1, pools: ['networkVolume'] },
  networkVolume: { networkVolumes: 1 },
  otherNetworkVolume: { networkVolumes: 1 },
  template: { templates: 1 },
};

export const zeroCounts = (): Counts => ({ gpuPods: 0, cpuPods: 0, networkVolumes: 0, endpoints: 0, warmEndpoints: 0, templates: 0, secrets: 0 });

export function addCounts(into: Counts, more: Partial<Counts>, times = 1): Counts {
  for (const k of COUNT_KINDS) into[k] += (more[k] ?? 0) * times;
  return into;
}

/** Every pool `names` needs, with the pools those need (a network pod needs the volume). */
export function poolClosure(names: Iterable<PoolName>): Set<PoolName> {
  const out = new Set<PoolName>();
  const visit = (n: PoolName) => { if (out.has(n)) return; out.add(n); for (const m of POOLS[n].pools ?? []) visit(m); };
  for (const n of names) visit(n);
  return out;
}

/** What one test creates by itself in a world of its own (its pools made for it alone). */
export function ownCounts(c: Creates): Counts {
  const counts = addCounts(zeroCounts(), c);
  for (const p of poolClosure(c.pools ?? [])) addCounts(counts, POOLS[p]);
  return counts;
}

/**
 * The run's creations: each test's own, and each pool once per worker that borrows it
 * (`pooled`: a deployment) or once per test that borrows it (an emulator: a world per test).
 */
export function planCounts(tests: readonly Creates[], options: { pooled: boolean; workers: number }): { counts: Counts; upTo: Counts; pools: PoolName[] } {
  const counts = zeroCounts();
  const maybe = zeroCounts();
  const pools = new Set<PoolName>();
  for (const t of tests) {
    addCounts(maybe, t.maybe ?? {});
    if (options.pooled) {
      addCounts(counts, t);
      for (const p of poolClosure(t.pools ?? [])) pools.add(p);
    } else addCounts(counts, ownCounts(t));
  }
  // A pool is made by the first test of a worker that borrows it; with fewer tests than workers, fewer.
  for (const p of pools) {
    const borrowers = tests.filter((t) => poolClosure(t.pools ?? []).has(p)).length;
    addCounts(counts, POOLS[p], Math.min(options.workers, borrowers));
  }
  return { counts, upTo: addCounts(addCounts(zeroCounts(), counts), maybe), pools: [...pools].sort() };
}

/** Whether a test that needs `need` runs with these capabilities and opt-ins. */
export const needMet = (need: Need | readonly Need[] | undefined, has: Has): boolean => unmet(need, has).length === 0;

export const podCount = (c: Pick<Counts, 'gpuPods' | 'cpuPods'>): number => c.gpuPods + c.cpuPods;

/** Budgets a run may not pass (`--max-*` flags or the profile); each unset one is unlimited. */
export interface Budgets {
  pods?: number;
  gpuPods?: number;
  requests?: number;
  /** USD, estimated from catalog prices and the profile's readiness timeout. */
  costUsd?: number;
}

export const BUDGET_FLAGS: Record<keyof Budgets, string> = { pods: '--max-pods', gpuPods: '--max-gpu-pods', requests: '--max-requests', costUsd: '--max-cost' };

/** USD per hour of one pod: a GPU type's price for `count` GPUs on its cloud, a CPU flavor's per vCPU. */
export interface PriceTable {
  gpu: Record<string, { secure?: number; community?: number }>;
  cpu: Record<string, number>;
  /** A serverless pool (an endpoint's `gpuIds` tier) → the dearest `price.serverless` of its GPU types (lib/worker-time.ts). */
  serverless?: Record<string, number>;
}

/** A pod as the price table and the budget see it: its type or flavor, and how much of it. */
export interface PodShape { gpu?: { id: string; count?: number }; cpu?: { id: string; vcpuCount?: number }; cloud?: string }

/** USD per hour, or undefined when the table does not price it. */
export function hourlyPrice(table: PriceTable | undefined, pod: PodShape): number | undefined {
  if (!table) return undefined;
  if (pod.gpu) {
    const p = table.gpu[pod.gpu.id];
    const perGpu = pod.cloud === 'COMMUNITY' ? p?.community ?? p?.secure : p?.secure ?? p?.community;
    return perGpu === undefined ? undefined : perGpu * (pod.gpu.count ?? 1);
  }
  if (pod.cpu) {
    const p = table.cpu[pod.cpu.id];
    return p === undefined ? undefined : p * (pod.cpu.vcpuCount ?? 2);
  }
  return undefined;
}

/**
 * The estimated cost of a pod: its hourly price for the profile's readiness timeout, the longest
 * the suite keeps a pod it waits for (a bound, not a bill: most pods live seconds).
 */
export const podCostUsd = (hourly: number, readyTimeoutMs: number): number => hourly * readyTimeoutMs / 3_600_000;

/**
 * The budgets a plan passes, each as `--max-gpu-pods 1: the plan creates 4 GPU pods`. Pods are
 * judged at the plan's worst case (`upTo`: what a conforming target may accept besides), since
 * the run creates them whenever the target accepts.
 */
export function budgetBreaches(plan: { counts: Counts; upTo?: Counts; requests: number; estimatedCostUsd?: number; workerTime?: WorkerTimePlan }, budgets: Budgets): string[] {
  const out: string[] = [];
  const worst = plan.upTo ?? plan.counts;
  const upTo = (k: 'gpuPods' | 'cpuPods') => (worst[k] > plan.counts[k] ? 'up to ' : '');
  const pods = podCount(worst);
  if (budgets.pods !== undefined && pods > budgets.pods) out.push(`${BUDGET_FLAGS.pods} ${budgets.pods}: the plan creates ${pods > podCount(plan.counts) ? 'up to ' : ''}${pods} pods`);
  if (budgets.gpuPods !== undefined && worst.gpuPods > budgets.gpuPods) out.push(`${BUDGET_FLAGS.gpuPods} ${budgets.gpuPods}: the plan creates ${upTo('gpuPods')}${worst.gpuPods} GPU pods`);
  if (budgets.requests !== undefined && plan.requests > budgets.requests) out.push(`${BUDGET_FLAGS.requests} ${budgets.requests}: the plan sends about ${plan.requests} requests`);
  if (budgets.costUsd !== undefined) {
    // Worker time counts as the pods do (lib/worker-time.ts): a bound, and unpriced worker time leaves the cost unknown.
    const workers = plan.workerTime !== undefined;
    if (plan.estimatedCostUsd === undefined) { if (pods > 0 || workers) out.push(`${BUDGET_FLAGS.costUsd} ${budgets.costUsd}: the cost is unknown (the catalog gives no price for the ${pods > 0 ? 'pods the run makes' : ''}${pods > 0 && workers ? ' or the ' : ''}${workers ? "workers of the run's endpoints" : ''})`); }
    else if (plan.estimatedCostUsd > budgets.costUsd) out.push(`${BUDGET_FLAGS.costUsd} ${budgets.costUsd}: the plan's pods${workers ? ' and worker time are' : ' are'} estimated at USD ${plan.estimatedCostUsd.toFixed(2)}`);
  }
  return out;
}
