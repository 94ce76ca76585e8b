/**
 * The one result model every renderer reads: rules and their verdicts, tests and their
 * evidence, property counterexamples, load results and the baseline status. It is versioned
 * (`schemaVersion`) and validated by `reports/report.schema.json`; a change to these types
 * changes that schema in the same edit (test/reports-schema.test.ts keeps them together).
 */
import type { RuleLevel, Surface } from '../lib/rules.js';
import type { Evidence } from '../lib/evidence.js';
import type { PropertyRecord } from './raw.js';
import type { LoadSection } from './load-model.js';
import type { MutationSection } from './mutation-model.js';
import type { CostSection } from './cost-model.js';

export type { LoadSection, LoadScenarioResult } from './load-model.js';
export type { MutationSection } from './mutation-model.js';
export type { CostSection } from './cost-model.js';

/** Major.minor.patch; a reader accepts every report of its own major version. */
export const REPORT_SCHEMA_VERSION = '2.4.0';

/**
 * `blocked`: every test that declares the rule stopped before checking it, because something
 * else broke (another rule's check, a helper, setup); `blockedReasons` says what.
 */
export type Verdict = 'pass' | 'fail' | 'blocked' | 'skip' | 'observed' | 'untested';
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'blocked', 'skip', 'observed', 'untested'];

/** One test as it ran: contract and property tests from Playwright, load scenarios from k6. */
export interface TestOutcome {
  id: string;
  kind: 'contract' | 'property' | 'load' | 'other';
  title: string;
  file: string;
  /** `notRun`: planned, never started (the run ended first). */
  status: 'passed' | 'failed' | 'skipped' | 'interrupted' | 'notRun';
  durationMs: number;
  rules: string[];
  failedRules: string[];
  /** Declared rules the test could not check, and why: each counts `skip` from this test (report 2.3). */
  unchecked?: { rule: string; reason: string }[];
  skipReason?: string;
  /**
   * Set on a skipped test that the target's circumstances stopped before its checks (no GPU
   * capacity on any candidate, a budget reached): its rules are `blocked` with this reason.
   */
  blocked?: string;
  error?: string;
  evidence?: Evidence[];
  property?: PropertyRecord;
  observed?: { rule: string; value: unknown }[];
  /** Requests the test sent, every attempt (its `usage`; the cost section sums them by surface). */
  requests?: number;
}

/** Why one test did not reach a rule: the rules that broke first (when a check named them), or the error's first line. */
export interface BlockedReason { test: string; rules?: string[]; reason: string }

/** What one test saw for an OBSERVED rule. */
export interface Observation { test: string; value: unknown }

/** The baseline's view of one rule (present when the run had `--baseline`). */
export interface RuleBaseline {
  /** The verdict the expectations file records; `conforming` when the file does not list the rule. */
  expected: Verdict | 'conforming';
  status: 'as-expected' | 'changed';
  note?: string;
}

export interface RuleResult {
  id: string;
  level: RuleLevel;
  surface: Surface;
  section: string;
  statement: string;
  /** For OBSERVED rules: what the live platform is known to do. */
  observedExpectation?: string;
  verdict: Verdict;
  /** Ids of the tests that verify the rule. */
  tests: string[];
  /** For `observed`: what the target did, one entry per observation. */
  observed?: Observation[];
  /** For `skip`: why. */
  skipReasons?: string[];
  /** For `blocked`: what stopped each test before it checked the rule. */
  blockedReasons?: BlockedReason[];
  /** For `fail`: each failing test and its message. */
  failures?: { test: string; message: string }[];
  baseline?: RuleBaseline;
}

export type Counts = Record<Verdict, number> & { total: number };

/** The MUST rules a run decided (`pass` or `fail`) of all of them, and the undecided ones by cause. */
export interface MustCoverage { total: number; decided: number; undecided: { cause: string; count: number }[] }

/** One switched-on emulator fault and the rule it breaks. */
export interface FaultInfo { id: string; rule?: string; description?: string }

export interface TargetIdentity {
  kind: 'embedded' | 'remote';
  /**
   * The label that says which reports belong to one target's history (`--target-name`, the
   * profile's `targetName`): by default the base URL, or `embedded emulator` for every embedded
   * run whatever its port. Reports written before it existed have none (reports/target-name.ts).
   */
  name?: string;
  baseUrl?: string;
  serverlessUrl?: string;
  restV1Url?: string;
  endpointId?: string;
  /** Which keys were configured; never the keys themselves. */
  keys: { main: boolean; readonly: boolean; other: boolean };
  /** True when the target is the emulator (embedded, or a remote one whose control surface answers). */
  emulator: boolean;
  faults: FaultInfo[];
  /** Conforming variants every emulator world answered with (CPC_EMULATOR_VARIANTS; report 2.2). */
  variants?: string[];
  /** Legal chaos in every emulator world: its seed and options (CPC_EMULATOR_CHAOS, --chaos; report 2.2). */
  chaos?: { seed: number; realTime?: boolean; latencyMs?: number; capacityShare?: number; capacityOnly?: boolean };
}

export interface RunInfo {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  complete: boolean;
  interruption?: string;
  seed?: number;
  /** A command that replays the run with the same seed. */
  replay?: string;
  configuration: Record<string, string | number | boolean>;
}

export interface TestCounts { total: number; passed: number; failed: number; skipped: number; interrupted: number; notRun: number }

/** One difference between the run and the expectations file. */
export interface BaselineChange {
  rule: string;
  expected: Verdict | 'conforming' | 'absent';
  actual: Verdict | 'absent';
  kind: 'new-failure' | 'new-pass' | 'changed' | 'stale-entry';
  note?: string;
}

export interface BaselineStatus {
  file: string;
  /** True when this run rewrote the file on purpose (`--update-baseline`). */
  updated: boolean;
  /** True when every rule has the verdict the file expects. */
  matched: boolean;
  /** How many rules the file lists. */
  entries: number;
  changes: BaselineChange[];
}

export interface ConformanceReport {
  schemaVersion: string;
  suite: { name: string; version: string };
  target: TargetIdentity;
  run: RunInfo;
  summary: {
    rules: Counts;
    bySurface: Record<string, Counts>;
    byLevel: Record<string, Counts>;
    tests: TestCounts;
    /** True when the run completed, every MUST rule that ran passed and no test failed. */
    conformant: boolean;
    /** How many MUST rules the run decided (pass or fail) and why the rest were not (report 2.3; reports/coverage.ts). */
    must?: MustCoverage;
  };
  rules: RuleResult[];
  tests: TestOutcome[];
  load?: LoadSection;
  baseline?: BaselineStatus;
  /** The detection matrix of the emulator's faults, when `cpc detect` ran into the same folder. */
  detection?: DetectionSection;
  /** The whole suite with one fault on at a time (`cpc detect --full`), when it ran into the same folder. */
  blastRadius?: BlastRadiusSection;
  /** Mutation testing of the emulator (`npm run mutation`), when its report is in the output folder. */
  mutation?: MutationSection;
  /** What changed since a previous report of the same target (`--previous`). */
  changes?: ChangesSection;
  /** What the run made and spent on its target (since 2.2; reports/cost-model.ts). */
  cost?: CostSection;
}

/** A rule's verdict in one run of a trail; `absent` when that run's catalog did not have the rule. */
export type TrailVerdict = Verdict | 'absent';

/** One run of a trail of reports. */
export interface TrailRun {
  startedAt: string;
  suiteVersion: string;
  seed?: number;
  /** False for an incomplete or partial run: its verdicts are shown but not compared (reports/trend.ts). */
  comparable: boolean;
}

/** See reports/changes.ts: this run against the previous report of the same target, and the last few runs. */
export interface ChangesSection {
  /** The report compared with (its file name when read from one). */
  previous: TrailRun & { file?: string };
  /** Every rule whose verdict differs from the previous report's, in catalog order. */
  changed: { rule: string; from: TrailVerdict; to: TrailVerdict }[];
  /** The last runs, oldest first, this one last: what `trail` and `unstable` cover. */
  runs: TrailRun[];
  /** Each rule whose verdict was not the same in every run of `runs`, with its verdict per run; a rule not listed had this run's verdict in each. */
  trail: Record<string, TrailVerdict[]>;
  /** Rules whose verdict changed at least twice between the runs of `runs`. */
  unstable: string[];
}

/** See run/detection/matrix.ts: what the suite caught with each emulator fault on. */
export interface DetectionSection {
  generatedAt: string;
  faults: number;
  detected: number;
  /** Faults whose selected tests failed more than 3 MUST rules. */
  overLimit?: number;
  rows: {
    fault: string; rule: string; description: string; detection: 'detected' | 'other-rule' | 'missed' | 'no-tests';
    tests: number; failedTests: number; failedRules: string[]; witness?: string;
    /** How many of `failedRules` are MUST rules; `blockedTests`: failed tests that named no rule. */
    failedMust?: number; blockedTests?: number;
  }[];
}

/** See run/detection/matrix.ts (`buildBlastRadius`): the MUST rules the whole suite failed with each fault on. */
export interface BlastRadiusSection {
  generatedAt: string;
  durationMs: number;
  faults: number;
  /** At most this many failed MUST rules per fault. */
  limit: number;
  median: number;
  max: number;
  missingOwnRule: number;
  overLimit: number;
  rows: { fault: string; rule: string; failedMust: string[]; ownRule: boolean; tests: number; failedTests: number; blockedTests: number }[];
}
