/** The shapes of a preflight: its findings, the target's capabilities, the rule and creation plans. */
import type { PodCatalog } from '../../lib/pod-catalog.js';
import type { Counts, Creates, PoolName, PriceTable } from '../../lib/plan.js';
import type { Provision } from '../../lib/protocol.js';
import type { WorkerTimePlan } from '../../lib/worker-time.js';

export type CheckStatus = 'ok' | 'warn' | 'missing' | 'fail';

/** One finding; `fail` and a required `missing` make the target not ready (exit 2). */
export interface PreflightCheck {
  name: string;
  status: CheckStatus;
  detail: string;
  /** The variable to set or fix. */
  setting?: string;
  required: boolean;
}

/** What the target offers the suite, from the checks. */
export interface Capabilities {
  control: boolean;
  readonlyKey: boolean;
  otherKey: boolean;
  endpointId: boolean;
  /** The GPU tier (`gpuIds`) of CPC_ENDPOINT_ID's endpoint, as GraphQL `myself` lists it: the price of its worker time. */
  endpointTier?: string;
  templateId: boolean;
  modelEndpointId: boolean;
}

/** One test as `playwright test --list` shows it, with its declaration (what it creates and needs). */
export interface ListedTest { project: string; file: string; title: string; rules: string[]; creates: Creates }

export interface RulePlan { runs: string[]; skipped: { rule: string; reasons: string[] }[] }

export interface CreationPlan {
  /** What the run will create, from the tests' declarations (lib/plan.ts), pools counted once per worker on a deployment. */
  counts: Counts;
  /** At most, with what tests may create besides (a target that accepts what it may refuse). */
  upTo: Counts;
  /** The pooled resources the run will make. */
  pools: PoolName[];
  /** Requests the run is expected to send (contract/request-estimates.json per test, measured on a deployment-like run). */
  requests: number;
  /**
   * USD: every pod priced for the profile's readiness timeout, and the worker time's bound;
   * absent when the catalog gives no price for a pod the run makes or for its workers.
   */
  estimatedCostUsd?: number;
  /** The job tests' worker time, a bound, priced from the catalog's serverless prices (lib/worker-time.ts). */
  workerTime?: WorkerTimePlan;
  /** Catalog prices, for the run's cost budget and report. */
  prices?: PriceTable;
  gpuType?: string;
  cpuFlavor?: string;
  /** The vCPU count CPU pods are made with (the flavor's smallest). */
  cpuVcpus?: number;
  dataCenter?: string;
  image: string;
  /** What the run provisions from its worker image (run/provision/). */
  provision?: Provision;
  /** The catalog as read, for the run to reuse (read once per run). */
  catalog?: PodCatalog;
}

/** Requests per test, measured on a deployment-like run (contract/request-estimates.json): key `file › title`. */
export interface RequestEstimates { perTest: Record<string, number>; default: number }

export interface PreflightResult {
  ready: boolean;
  checks: PreflightCheck[];
  capabilities: Capabilities;
  plan?: RulePlan;
  /** The tests that wait in real time, run beside the suite in a Playwright worker of their own (lib/lanes.ts): how many will run, and the suite's workers. */
  longWaitLane?: { tests: number; suiteWorkers: number };
  creates?: CreationPlan;
}

/** Adds one finding to the preflight's list. */
export type AddCheck = (c: PreflightCheck) => void;
