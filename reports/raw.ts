import type { Evidence } from '../lib/evidence.js';

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
  error?: string;
  evidence?: Evidence[];
  /** Property runs: seed, path and counterexample for replay. */
  property?: { seed: number; numRuns: number; path?: string; counterexample?: string; replay?: string };
}

/** The header line of a raw results file. */
export interface RawRunHeader { kind: 'run'; startedAt: string; workers: number }
/** The last line, written only when the runner ends normally. */
export interface RawRunFooter { kind: 'end'; finishedAt: string; status: 'passed' | 'failed' | 'timedout' | 'interrupted' }

export const RAW_FILE = 'playwright.jsonl';
