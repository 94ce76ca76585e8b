/**
 * The long-wait lane of a conformance run against a deployment: the tests that wait in real time
 * for tens of minutes (they declare the need `longWaits`, lib/needs.ts) run in a Playwright
 * project of their own with ONE worker of its own, started first and beside the suite, so the run
 * lasts about the longest wait rather than the wait plus the rest of the suite. They still count
 * as the suite's tests (their kind is their file's, reports/verdicts.ts).
 *
 * Which tests belong to it is their declaration's: `rules(..., needs('longWaits'))` gives the
 * test the tag {@link LONG_WAIT_TAG} (contract/support/rules.ts), and the lane's project selects
 * by that tag (Playwright's per-project `grep`), the suite's project leaves it out (`grepInvert`).
 * No file list is kept by hand.
 */
import type { Project } from '@playwright/test';
import { needList, type Need } from './needs.js';
import { addCounts, planCounts, type Creates } from './plan.js';
import { SUITE_PROJECT } from './suites.js';

/** The lane's Playwright project (after {@link SUITE_PROJECT}, whose tests it shares the report with). */
export const LONG_WAIT_PROJECT = 'suite-long-waits';

/** The tag a test that needs long waits carries (not a rule id: preflight's listing leaves it out of the rules). */
export const LONG_WAIT_TAG = '@long-waits';

type Plan = ReturnType<typeof planCounts>;

/** What the lane's project selects (Playwright matches a test's titles and tags, space-separated). */
export const LONG_WAIT_GREP = /(?:^|\s)@long-waits(?:\s|$)/;

/** The need that puts a test in the lane. */
const LANE_NEED: Need = 'longWaits';

/** Whether a declaration puts its test in the long-wait lane. */
export const inLongWaitLane = (declaration: { needs?: Need | readonly Need[] | undefined }): boolean => needList(declaration.needs).includes(LANE_NEED);

/** A run's workers, lane by lane: the suite's, and the lane's one when there is a lane. */
export interface Lanes {
  /** The suite's workers (lib/run-config.ts `workersFor`): pooled resources are made once per each (lib/plan.ts). */
  suite: number;
  /** The long-wait lane's one worker, beside the suite's. */
  longWaits: boolean;
}

/**
 * The lanes of a run: a long-wait lane on a deployment (no control surface: an emulator decides
 * those rules on its virtual clock, and the tests skip there) when the run opts in to long waits.
 */
export const lanesFor = (suiteWorkers: number, run: { control: boolean; allowLongWaits?: boolean | undefined }): Lanes =>
  ({ suite: suiteWorkers, longWaits: !run.control && run.allowLongWaits === true });

/** Every Playwright worker of the run: the suite's, and the lane's. */
export const totalWorkers = (lanes: Lanes): number => lanes.suite + (lanes.longWaits ? 1 : 0);

/**
 * The Playwright projects of a `cpc conformance` run over `testMatch` (its suites' files). With
 * a lane, the lane's project comes FIRST (the dispatcher takes test groups in project order, so
 * its test starts at once) with one worker, and the suite's project keeps its own workers: the
 * lane's worker, once its tests end, never becomes another suite worker (which would make a
 * pool more than the plan counted).
 */
export function conformanceProjects(testMatch: RegExp[], lanes: Lanes): Project[] {
  if (!lanes.longWaits) return [{ name: SUITE_PROJECT, testDir: '.', testMatch }];
  return [
    { name: LONG_WAIT_PROJECT, testDir: '.', testMatch, grep: LONG_WAIT_GREP, workers: 1 },
    { name: SUITE_PROJECT, testDir: '.', testMatch, grepInvert: LONG_WAIT_GREP, workers: lanes.suite },
  ];
}

/**
 * The run's creations lane by lane (lib/plan.ts `planCounts`): a pool is made once per worker
 * that borrows it, so the suite's tests count the suite's workers, and the lane's tests, in a
 * worker of their own, count that one worker. Without a lane, every test is the suite's.
 */
export function planByLane(tests: readonly Creates[], lanes: Lanes, pooled: boolean): Plan {
  const lane = lanes.longWaits ? tests.filter(inLongWaitLane) : [];
  const suite = planCounts(lane.length ? tests.filter((t) => !inLongWaitLane(t)) : tests, { pooled, workers: lanes.suite });
  if (lane.length === 0) return suite;
  const own = planCounts(lane, { pooled, workers: 1 });
  return { counts: addCounts(suite.counts, own.counts), upTo: addCounts(suite.upTo, own.upTo), pools: [...new Set([...suite.pools, ...own.pools])].sort() };
}
