import type { Evidence } from '../lib/evidence.js';

/** What `property/support/run.ts` records for a property run: enough to replay it. */
export interface PropertyRecord { seed: number; numRuns: number; path?: string; counterexample?: string; replay?: string }

/** One test's outcome as the Playwright reporter records it (one JSON line per test). */
export interface RawTestResult {
  id: string;
  project: string;
  file: string;
  title: string;
  titlePath: string[];
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  expectedStatus: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  durationMs: number;
  /** Rule ids the test declares. */
  rules: string[];
  /** Rule ids a failing check attributed its failure to. */
  failedRules: string[];
  observed: { rule: string; value: unknown }[];
  skipReason?: string;
  /** Stopped by the target's circumstances before its checks (lib/annotations.ts `blocked`): why. */
  blocked?: string;
  error?: string;
  evidence?: Evidence[];
  /** Property runs: seed, path and counterexample for replay. */
  property?: PropertyRecord;
  /** Detection runs: the emulator fault this run of the test had switched on. */
  fault?: string;
  /** What this attempt sent and made (lib/annotations.ts `usage`): the report's cost section sums it. */
  usage?: TestUsage;
}

/** A test's `usage` annotation: requests per surface and creations per kind (lib/plan.ts `Counts`). */
export interface TestUsage { requests: { total: number; bySurface: Record<string, number> }; created: Record<string, number> }

/** A test the run was going to execute, as known when it began. */
export interface RawPlannedTest { id: string; project: string; file: string; title: string; titlePath: string[]; rules: string[] }

/** The header line of a raw results file. */
export interface RawRunHeader { kind: 'run'; startedAt: string; workers: number }
/** The second line: every test selected for the run, so tests never reached still show. */
export interface RawRunPlan { kind: 'plan'; tests: RawPlannedTest[] }
/** The last line, written only when the runner ends normally. */
export interface RawRunFooter { kind: 'end'; finishedAt: string; status: 'passed' | 'failed' | 'timedout' | 'interrupted' }

export const RAW_FILE = 'playwright.jsonl';
