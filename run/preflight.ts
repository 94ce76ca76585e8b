/**
 * `cpc preflight`: what a run against the configured target will do, found without creating
 * anything. The target checks (run/preflight/probe.ts) say what the target offers; the tests'
 * declarations then say which rules will run, which will be skipped and why (what each needs,
 * lib/needs.ts), what the run provisions from its worker image and what it will create
 * (run/provision/forecast.ts, lib/plan.ts).
 */
import type { RunConfig } from '../lib/protocol.js';
import { ConfigError } from '../lib/errors.js';
import { needMet } from '../lib/plan.js';
import { inLongWaitLane, lanesFor, planByLane } from '../lib/lanes.js';
import { workersFor } from '../lib/run-config.js';
import { estimateCost } from './preflight/catalog.js';
import { probeTarget } from './preflight/probe.js';
import { forecastHas, forecastRules, provisionCreates, provisionFor } from './provision/forecast.js';
import { plannedWorkerTime } from './provision/worker-time.js';
import type { ListedTest, PreflightResult, RequestEstimates, RulePlan } from './preflight/types.js';

export { listedTests } from './preflight/rules.js';
export { blockers, preflightText } from './preflight/text.js';
export type { RequestEstimates } from './preflight/types.js';

const testKeyOf = (t: Pick<ListedTest, 'file' | 'title'>): string => `${t.file} › ${t.title}`;

function estimateRequests(tests: readonly ListedTest[], estimates: RequestEstimates | undefined): number {
  if (!estimates) return 0;
  return tests.reduce((n, t) => n + (estimates.perTest[testKeyOf(t)] ?? estimates.default), 0);
}

/**
 * Runs the checks against the remote target of a run configuration (lib/run-config.ts: its
 * target, profile and ids). `listTests` gives the suite's tests (the CLI's `playwright test
 * --list`); without it the rule plan is left out.
 */
export async function preflight(run: Pick<RunConfig, 'target' | 'profile' | 'templateId' | 'modelEndpointId'> & Partial<Pick<RunConfig, 'workers' | 'allowWarmWorkers' | 'allowPropertyLoad' | 'allowRateLimitExhaustion' | 'allowLongWaits' | 'chaos'>>, options: { listTests?: () => Promise<ListedTest[]>; requestEstimates?: RequestEstimates } = {}): Promise<PreflightResult> {
  const config = run.target;
  if (config.kind !== 'remote') throw new ConfigError('preflight runs against a configured target (CPC_BASE_URL), resolved once (run/target.ts)', 'CPC_BASE_URL');
  const { checks, capabilities, creates, answered } = await probeTarget(config, run.profile, run);
  let plan: RulePlan | undefined;
  let longWaitLane: PreflightResult['longWaitLane'];
  // A target that answered nothing has no plan: what it can do is unknown, not absent (and listing
  // the suite is a Playwright start of its own, seconds of CPU, for a target that is not ready).
  if (options.listTests && answered) {
    const tests = await options.listTests();
    // What each test declares it needs decides whether it runs here (lib/needs.ts), as the fixtures decide it.
    const has = forecastHas(capabilities, run);
    plan = forecastRules(tests, has);
    const running = tests.filter((t) => needMet(t.creates.needs, has));
    // The tests that wait in real time run beside the suite, in a worker of their own (lib/lanes.ts).
    const lanes = lanesFor(workersFor(run.workers, capabilities.control), { control: capabilities.control, allowLongWaits: run.allowLongWaits });
    const lane = lanes.longWaits ? running.filter((t) => inLongWaitLane(t.creates)).length : 0;
    if (lane) longWaitLane = { tests: lane, suiteWorkers: lanes.suite };
    if (creates) {
      const provision = provisionFor(running, capabilities, run);
      const provisioned = provisionCreates(provision);
      const planned = planByLane([...running.map((t) => t.creates), provisioned], lanes, !capabilities.control);
      creates.counts = planned.counts;
      creates.upTo = planned.upTo;
      creates.pools = planned.pools;
      if (provision.endpoint || provision.hold || provision.template) creates.provision = provision;
      // The tests' own requests, and the teardown's: a deletion per pooled or provisioned resource
      // and one listing of what the run's names still hold (pods, volumes, endpoints) by the main
      // key (other keys create nothing when the target conforms, run/global-setup.ts).
      creates.requests = estimateRequests(running, options.requestEstimates) + (capabilities.control ? 0 : planned.pools.length + 3) + 2 * ((provisioned.templates ?? 0) + (provisioned.endpoints ?? 0));
      const workerTime = plannedWorkerTime(running.map((t) => t.creates), capabilities, provision, creates.prices);
      if (workerTime) creates.workerTime = workerTime;
      const cost = estimateCost(creates, run.profile);
      if (cost !== undefined) creates.estimatedCostUsd = cost;
    }
  }
  const ready = !checks.some((c) => c.status === 'fail' || (c.status === 'missing' && c.required));
  return { ready, checks, capabilities, ...(plan ? { plan } : {}), ...(longWaitLane ? { longWaitLane } : {}), ...(creates ? { creates } : {}) };
}
