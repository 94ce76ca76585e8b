import { test } from '../../support/fixtures.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { healthConformance, jobCounters } from '../../checks/health-conformance.js';
import { jobJsonConformance } from '../../checks/job-conformance.js';
import { jobsFor, setTimings } from './support/jobs.js';

// Spec: "Health object: `jobs` with integers `completed`, `failed`, `inProgress`, `inQueue`, `retried`;
// `workers` with integers `idle`, `running`."
test.describe('/health', () => {
  test('/health answers jobs and workers counters', rules('HEALTH.RESPONSE', 'HEALTH.JOBS', 'HEALTH.WORKERS', 'HEALTH.WORKERS.EXTRA_COUNTERS', 'JOB.HTTP.JSON'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    await jobs.runsync({ echo: 'warm' });
    const res = await jobs.health();
    const workers = (res.body as { workers?: Record<string, unknown> } | undefined)?.workers ?? {};
    observe('HEALTH.WORKERS.EXTRA_COUNTERS', Object.keys(workers).filter((k) => k !== 'idle' && k !== 'running').sort());
    conform(jobJsonConformance(res), healthConformance(res));
  });

  test('the job counters follow jobs from the queue to their end', rules('HEALTH.JOBS.COUNTS', 'HEALTH.JOBS'), async ({ api, emu, target }) => {
    emu.require('hold jobs in the queue and then let them run');
    await setTimings(emu, { coldStartMs: 1_000, automaticRetries: 0 });
    const jobs = jobsFor({ api, emu, target });
    const start = jobCounters(await jobs.health());
    for (let i = 0; i < 2; i++) await jobs.submit({ sleepMs: 10_000 });
    await jobs.submit({ sleepMs: 5_000, fail: 'counted' });
    const queued = await jobs.health();
    await emu.advance(1_000);
    const running = await jobs.health();
    await emu.advance(10_000);
    const done = await jobs.health();
    const [q, r, d] = [jobCounters(queued), jobCounters(running), jobCounters(done)];
    conform(
      healthConformance(queued), healthConformance(running), healthConformance(done),
      must(q.inQueue - start.inQueue === 3, 'HEALTH.JOBS.COUNTS', `3 jobs waiting for a worker: inQueue went ${start.inQueue} → ${q.inQueue}`),
      must(r.inProgress - start.inProgress === 3 && r.inQueue === start.inQueue, 'HEALTH.JOBS.COUNTS', `3 jobs running: inProgress ${start.inProgress} → ${r.inProgress}, inQueue ${r.inQueue}`),
      must(d.completed - start.completed === 2, 'HEALTH.JOBS.COUNTS', `2 jobs completed: completed went ${start.completed} → ${d.completed}`),
      must(d.failed - start.failed === 1, 'HEALTH.JOBS.COUNTS', `1 job failed: failed went ${start.failed} → ${d.failed}`),
      must(d.inProgress === start.inProgress && d.inQueue === start.inQueue, 'HEALTH.JOBS.COUNTS', `all jobs ended: inProgress ${d.inProgress}, inQueue ${d.inQueue}`),
    );
  });
});
