/**
 * The cost section of the report (`cost` in reports/model.ts, `$defs/costSection` in the
 * schema): what a run made on its target and what it spent, from two kinds of input. The tests'
 * `usage` annotations (lib/annotations.ts) come with every run that records them; the files the
 * run's teardown writes beside the report (`usage.json`, `pacing.json`, `leftovers.json`, and
 * preflight's `plan.json`) come only from a deployment run. A part without its input is absent,
 * and the renderers say it was not measured on this target rather than show a zero.
 */

import { COUNT_KINDS, type Counts } from '../lib/plan.js';
import type { ObservedWorkerTime, WorkerTimePlan } from '../lib/worker-time.js';

/** Resources by kind, as lib/plan.ts counts them (pods split into GPU and CPU pods). */
export type CostCounts = Counts;

export const COST_KINDS: readonly (keyof CostCounts)[] = COUNT_KINDS;

/** One test's requests (its attempts summed), for the list of the heaviest. */
export interface TestRequests { id: string; title: string; total: number; bySurface: Record<string, number> }

/** A resource the run could not delete (`leftovers.json`): ids and names only, never a key. */
export interface CostLeftover { kind: string; id?: string; name?: string; reason: string; test: string }

export interface CostSection {
  /** What the section was built from: how many test records carried usage, and which files were there. */
  sources: { tests: number; usage: boolean; pacing: boolean; leftovers: boolean; plan: boolean };
  requests: {
    /** Summed over the tests' usage annotations. */
    total: number;
    bySurface: Record<string, number>;
    /** Every request of the run, the teardown's included (`usage.json`). */
    run?: number;
    /** The tests that sent the most, most first (at most {@link TOP_TESTS}). */
    top: TestRequests[];
  };
  created: {
    /** Summed over the tests' usage annotations. */
    tests: CostCounts;
    /** The run's record of its creations (`usage.json`), pooled resources included. */
    run?: CostCounts;
    /** Preflight's plan (`plan.json`). */
    planned?: CostCounts;
    /** Shape → how many (`usage.json`). */
    byShape?: Record<string, number>;
  };
  /** The rest of preflight's plan. */
  plan?: { pools: string[]; requests: number; estimatedCostUsd?: number };
  /**
   * Worker time on the run's endpoints (report 2.4), priced from the catalog's serverless
   * prices (no price when the catalog has none): `planned`, preflight's bound from the job
   * tests' declarations (`plan.json`); `observed`, the provisioned endpoints' lifetimes times
   * their `workersMax` (`usage.json`). Both bounds; the run measures no billed worker time.
   */
  workerTime?: { planned?: WorkerTimePlan; observed?: ObservedWorkerTime };
  /** GPU type or CPU flavor → minutes from each pod's creation to its deletion (`usage.json`). */
  podMinutes?: { gpu: Record<string, number>; cpu: Record<string, number> };
  /** USD from pod-minutes and catalog prices; absent when the catalog gives no prices. */
  estimatedCostUsd?: number;
  /** Pods the catalog gave no price for (their minutes are not in the estimate). */
  unpriced?: number;
  /** The time tests waited for the target's rate limit (`pacing.json`). */
  rateLimit?: { waitedMs: number; retried: number; gaveUp: number; tests: number };
  /** What the run could not delete (`leftovers.json`). */
  leftovers?: { created: number; items: CostLeftover[] };
}

export const TOP_TESTS = 10;
