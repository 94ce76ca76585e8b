import { test } from '../../support/fixtures.js';
import { conform, needs, observe, rules, type Finding } from '../../support/rules.js';
import { activeCountsConformance, healthConformance, jobCounters } from '../../checks/health-conformance.js';
import { jobJsonConformance } from '../../checks/job-conformance.js';
import { jobsFor, setTimings, statusesOf, TERMINAL } from './support/jobs.js';

const STEP_MS = 1_000;
/** Longest the test moves the clock waiting for the jobs to end. */
const MAX_WAIT_MS = 5 * 60_000;

// Spec: "Health object: `jobs` with integers `completed`, `failed`, `inProgress`, `inQueue`, `retried`;
// `workers` with integers `idle`, `running`."
test.describe('/health', () => {
  test('/health answers jobs and workers counters', rules('HEALTH.RESPONSE', 'HEALTH.JOBS', 'HEALTH.WORKERS', 'HEALTH.WORKERS.EXTRA_COUNTERS', 'JOB.HTTP.JSON', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    // The object's shape is what is checked, whatever the counters hold: no job is run first.
    const res = await jobs.health();
    const workers = (res.body as { workers?: Record<string, unknown> } | undefined)?.workers ?? {};
    observe('HEALTH.WORKERS.EXTRA_COUNTERS', Object.keys(workers).filter((k) => k !== 'idle' && k !== 'running').sort());
    conform(jobJsonConformance(res), healthConformance(res));
  });

  // Which job a worker takes and when is "not shown" (a queue, a cold start), so the counters are
  // judged by what /status shows of the jobs at the same instant, read before and after /health:
  // an instant at which a job moved between those reads decides nothing.
  test('the job counters follow jobs from the queue to their end', rules('HEALTH.JOBS.COUNTS', 'HEALTH.JOBS', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('hold jobs in the queue and then let them run');
    await setTimings(emu, { coldStartMs: 1_000, automaticRetries: 0 });
    const jobs = jobsFor({ api, emu, target });
    const start = jobCounters(await jobs.health());
    const ids = [await jobs.submit({ sleepMs: 10_000 }), await jobs.submit({ sleepMs: 10_000 }), await jobs.submit({ sleepMs: 5_000, fail: 'counted' })];
    const findings: Finding[] = [];
    let [waitingSeen, runningSeen, decided] = [false, false, 0];
    for (let moved = 0; ; moved += STEP_MS) {
      const before = await statusesOf(jobs, ids);
      const health = await jobs.health();
      const after = await statusesOf(jobs, ids);
      findings.push(...healthConformance(health));
      if (before.every((s, i) => s !== undefined && s === after[i])) {
        decided++;
        waitingSeen ||= before.includes('IN_QUEUE');
        runningSeen ||= before.includes('IN_PROGRESS');
        findings.push(...activeCountsConformance(health, start, before, `${moved} ms after the jobs were submitted`));
      }
      if (findings.length || after.every((s) => s !== undefined && TERMINAL.has(s)) || moved >= MAX_WAIT_MS) break;
      await emu.advance(STEP_MS);
    }
    conform(findings);
    test.skip(!waitingSeen && !runningSeen, `the jobs never showed IN_QUEUE or IN_PROGRESS at an instant read beside /health (${decided} instant(s) decided): no counter was compared with a job waiting or running`);
  });
});
