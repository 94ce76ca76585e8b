/**
 * The protocol between the suite's processes and files, after Playwright's `common/ipc.ts`:
 * everything that crosses a process or file boundary is typed here, once. The command line
 * writes the run configuration ({@link RunConfig}, one variable) and the matrix plans; the
 * Playwright workers write annotations and attachments, which the raw reporter turns into raw
 * records; global setup and the fixtures write the cleanup record, the pacing lines and the
 * budget files; the run's teardown writes `leftovers.json`, `pacing.json` and `usage.json`;
 * preflight writes `plan.json`; the report reads them all.
 */
import type { Evidence } from './evidence.js';
import type { Target, TargetSetting } from './config.js';
import type { ChaosOptions } from './chaos/options.js';
import type { TargetProfile } from './profile.js';
import type { SuiteName } from './suites.js';
import type { Budgets, Counts, PoolName, PriceTable } from './plan.js';
import type { PacingStats } from './client/pacing.js';
import type { KeyRole } from './client/api.js';
import type { ObservedWorkerTime, WorkerTimePlan } from './worker-time.js';

/** The surfaces a conforming variant of the emulator changes (emulator/variants.ts). */
export type VariantSurface = 'rest-v2' | 'serverless' | 'rest-v1' | 'graphql';

// ---- The run configuration ---------------------------------------------------------------

/** A target global setup resolves (a plain `npx playwright test`): the user's setting, and where the resolved {@link Target} goes. */
export interface PendingTarget { kind: 'pending'; setting: TargetSetting; file: string }

/** What a run provisions from its worker image (run/provision/): the job endpoint, the workersMax 1 endpoint, the template for the REST v1 checks. */
export interface Provision { endpoint: boolean; hold: boolean; template: boolean }

export interface RunConfig {
  /**
   * Where the suite points, resolved once: the command line starts the embedded emulator or asks
   * a deployment for its control surface before Playwright starts. A plain `npx playwright test`
   * hands `pending`: its global setup resolves it and writes the target to `file`, which the
   * workers read ({@link resolvedTarget} in lib/run-config.ts).
   */
  target: Target | PendingTarget;
  /** A serverless template to create endpoints from on a real target (CPC_TEMPLATE_ID). */
  templateId?: string;
  /** A public model endpoint on a real target (CPC_MODEL_ENDPOINT_ID). */
  modelEndpointId?: string;
  profile: TargetProfile;
  /** One seed for the run: every worker, property title and replay uses it. */
  seed: number;
  /** fast-check's path of one counterexample to replay (CPC_PATH). */
  replayPath?: string;
  /** Playwright workers (CPC_WORKERS, or the CLI's --workers); default Playwright config's 2. */
  workers?: number;
  propertyRuns: number;
  jobModelRuns: number;
  /** Opt-ins on a target without the emulator's control surface. */
  allowPropertyLoad: boolean;
  allowRateLimitExhaustion: boolean;
  /** Endpoints with `workersMin` > 0 (an always-on worker each) on a target without control surface (CPC_ALLOW_WARM_WORKERS). */
  allowWarmWorkers: boolean;
  /** Waits of minutes in real time, the retention windows side by side (CPC_ALLOW_LONG_WAITS). */
  allowLongWaits?: boolean;
  /**
   * Provisioning from the profile's worker image (run/provision/): what global setup makes
   * (preflight decides it from the tests' needs; without preflight, whatever the image can
   * stand in for), and the file its ids are written to for the workers.
   */
  provision?: Provision;
  provisionFile?: string;
  /** Emulator faults and conforming variants on in every test world. */
  faults: string[];
  variants: string[];
  /** Legal chaos in every test world (emulator/chaos/), when on. */
  chaos?: ChaosOptions;
  /** Where the raw reporter writes (default reports/out/raw under the project root). */
  rawDir?: string;
  /** Chosen with the configuration: the run id every name carries, and (on a deployment) its records. */
  runId?: string;
  cleanupFile?: string;
  pacingFile?: string;
  /** Budgets the run may not pass (`--max-*`, or the profile's): lib/plan.ts. */
  budgets?: Budgets;
  /** Chosen with the configuration: the run-wide request count and pod reservations (contract/support/budget.ts). */
  budgetFiles?: BudgetFiles;
  /** The catalog as preflight read it (JSON file): the run reads the catalog once. */
  catalogFile?: string;
  /** Catalog prices, read by preflight: the cost budget and the report's estimate. */
  prices?: PriceTable;
  /** `cpc conformance`: the suites to run, in one Playwright project (lib/suites.ts). */
  suites?: SuiteName[];
  /** The matrix plan this run executes, written by `cpc detect` or the variant matrix. */
  plan?: { kind: PlanKind; file: string };
}

export type PlanKind = 'detection' | 'variants';

/** The one variable that carries a {@link RunConfig} into Playwright's processes. */
export const RUN_CONFIG_VARIABLE = 'CPC_RUN_CONFIG';


// ---- Annotations and attachments (test → raw reporter) -----------------------------------

/**
 * The Playwright annotation types the suite writes on a test and the raw reporter reads back
 * (reports/playwright-reporter.ts): the one vocabulary between the tests and the report.
 */
export const ANNOTATION = {
  /** A rule the test verifies (declared with `rules(...)`); description: the rule id. */
  rule: 'rule',
  /** A rule a check of the test found broken; description: the rule id. */
  ruleFailed: 'rule-failed',
  /**
   * A rule the test declares but could not check on this target (no unlisted action to send, no
   * listed pod to read): the rule counts `skip` with this reason, whatever the test's other
   * rules do. Description: JSON `{rule, reason}`.
   */
  ruleUnchecked: 'rule-unchecked',
  /** What the target did for an OBSERVED rule; description: JSON `{rule, value}`. */
  observed: 'observed',
  /** Playwright's own annotation of a skipped test; description: the reason. */
  skip: 'skip',
  /** A property run's record; description: JSON (seed, numRuns, path, counterexample, replay). */
  property: 'property',
  /** The emulator fault a detection-matrix repetition ran with; description: the fault id. */
  fault: 'fault',
  /** A remark for the report (a check not made on a shared target, and why). */
  note: 'note',
  /**
   * The target's circumstances stopped the test before its checks (no GPU capacity on any
   * candidate, a budget reached, a create whose answer was lost): its rules are blocked with
   * this reason, never failed, and the test is skipped. Description: the reason.
   */
  blocked: 'blocked',
  /**
   * What the test creates when the target conforms (lib/plan.ts `Creates`, declared with
   * `rules(..., creates({...}))`); description: JSON. Preflight's plan, the budgets and the
   * creation guard read it.
   */
  creates: 'creates',
  /** What the test sent and made: JSON `{requests: {total, bySurface}, created: Counts}` (lib/plan.ts). */
  usage: 'usage',
  /** How long the test waited for the target's rate limit. */
  rateLimitWait: 'rate-limit-wait',
} as const;

/** The attachment names the fixtures write and the raw reporter reads. */
export const ATTACHMENT = {
  /** The exchanges the report keeps for a test (lib/evidence.ts), redacted, as JSON. */
  evidence: 'evidence',
} as const;

// ---- Raw results (raw reporter → report) -------------------------------------------------

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
  /** When the test started, and the worker slot it ran in (Playwright's `parallelIndex`): how the run was scheduled. */
  startedAt?: string;
  parallelIndex?: number;
  /** Rule ids the test declares. */
  rules: string[];
  /** Rule ids a failing check attributed its failure to. */
  failedRules: string[];
  /** Declared rules the test could not check, and why (`rule-unchecked` annotations). */
  uncheckedRules?: { rule: string; reason: string }[];
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

// ---- The matrix plans (command line → every worker) --------------------------------------

/**
 * The detection plan: which emulator faults each selected test runs under. One Playwright
 * project runs every selected test `repeat` times (`repeatEach`); repetition i of a test runs
 * with its i-th fault switched on, and repetitions beyond its list are skipped. Workers are
 * reused across faults, so the matrix costs test time, not one worker start per fault.
 */
export interface DetectionPlan {
  repeat: number;
  /** `file › describe › title` → fault ids, in repetition order. */
  tests: Record<string, string[]>;
  /** `cpc detect --full`: every test runs once per fault of this list (repetition i: fault i). */
  all?: string[];
}

/** The key of a test in the plan: its file (relative to the project root) and title path. */
export const testKey = (file: string, titles: readonly string[]): string => [file, ...titles].join(' › ');

export interface VariantEntry {
  /** A variant id or a set name. */
  name: string;
  variants: string[];
  surfaces: VariantSurface[];
}

export interface VariantPlan {
  entries: VariantEntry[];
  /** Every entry runs the whole contract and property suite. */
  full: boolean;
}

// ---- The cleanup record, leftovers.json (fixtures, teardown → report) --------------------

export type ResourceKind = 'pod' | 'networkVolume' | 'endpoint' | 'template' | 'secret';

export interface Resource {
  kind: ResourceKind;
  /** The id (templates: may be absent, they are deleted by name). */
  id?: string;
  name?: string;
  /** Endpoints: what saveEndpoint needs to scale one to 0 workers before deleting it. */
  gpuIds?: string;
  templateId?: string;
  /** The key role that created it (and so can delete it). */
  auth: KeyRole;
  /** The test that created it (its title path). */
  test: string;
  /** Pods: the type or flavor it runs on; endpoints: the worker counts it was created with. */
  shape?: ResourceShape;
  /** A pooled resource (lib/plan.ts): shared by a worker's tests, deleted by the run's teardown. */
  pool?: string;
  /** When it was created (ms since the epoch): pod-minutes for the cost section. */
  at?: number;
}

export interface ResourceShape {
  gpu?: { id: string; count?: number };
  cpu?: { id: string; vcpuCount?: number };
  cloud?: string;
  mounts?: 'persistent' | 'network';
  workersMin?: number;
  workersMax?: number;
}

export interface Leftover extends Resource { reason: string }

/** The shape of `leftovers.json`. */
export interface LeftoversFile {
  runId: string;
  /** Resources the run created on the target. */
  created: number;
  /** Still there after the run: the user must delete these by hand. */
  leftovers: Leftover[];
  writtenAt: string;
}

// ---- pacing.json, usage.json, plan.json (teardown, preflight → report) -------------------

/** One line of the run's pacing record: a test that waited for the target's rate limit. */
export interface PacingLine extends PacingStats { test: string }

/** `pacing.json`: the tests' waits for the rate limit, summed by the run's teardown. */
export interface PacingFile { runId: string; totalMs: number; retried: number; gaveUp: number; tests: PacingLine[] }

/**
 * `usage.json` beside the report, written by the run's teardown on a deployment from its record
 * of creations: what was made by kind and shape, pod-minutes by GPU type and CPU flavor (from
 * each pod's creation to its deletion), the estimated cost from catalog prices, and the
 * requests the whole run sent (every key, the teardown's included).
 */
export interface UsageFile {
  runId: string;
  created: Counts;
  /** Shape → how many (`GPU NVIDIA A40 x1`, `CPU cpu3c 2 vCPU`, `network volume`, `endpoint workersMin 0 workersMax 1`). */
  byShape: Record<string, number>;
  podMinutes: { gpu: Record<string, number>; cpu: Record<string, number> };
  /** USD, from pod-minutes and catalog prices; absent when the catalog gives no prices. */
  estimatedCostUsd?: number;
  /** Pods whose type or flavor the catalog gave no price for. */
  unpriced: number;
  /** The provisioned endpoints' lifetimes and the worker-minutes they bound (lib/worker-time.ts); absent when the run provisioned none. */
  workerTime?: ObservedWorkerTime;
  requests: number;
  writtenAt: string;
}

/** `plan.json`: what preflight planned for a run on a deployment (run/preflight.ts). */
export interface PlanFile {
  counts: Counts; pools: PoolName[]; requests: number;
  /** USD at most: the pods' estimate and the worker time's bound; absent when either is unpriced. */
  estimatedCostUsd?: number;
  /** The job tests' worker time on the run's endpoints, a bound (lib/worker-time.ts); absent when no test sends jobs. */
  workerTime?: WorkerTimePlan;
  /** Preflight's rule forecast (run/provision/forecast.ts): which rules run, which are skipped and why. */
  forecast?: { runs: string[]; skipped: { rule: string; reasons: string[] }[] };
}

/**
 * `forecast-check.json` beside the report: preflight's forecast (plan.json) against what the run
 * decided (run/provision/forecast-check.ts); `held` when they agree on every rule.
 */
export interface ForecastCheckFile { held: boolean; runs: number; skipped: number; mismatches: string[] }

/** The budget files (run/..., contract/support/budget.ts): one byte per request; one line per pod reservation or release. */
export interface BudgetFiles { requests: string; pods: string }
export interface PodReservationLine { id?: string; gpu?: boolean; usd?: number; release?: string }
