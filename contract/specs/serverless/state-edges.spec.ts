import { test } from '../../support/fixtures.js';
import { conform, must, needs, rules } from '../../support/rules.js';
import { statusOf } from '../../checks/job-conformance.js';
import { activeCountsConformance, jobCounters } from '../../checks/health-conformance.js';
import { jobsFor, setTimings } from './support/jobs.js';

// Job-state edges found by mutation testing (npm run mutation) that the other specs do not reach:
// the 1-minute retention of a /runsync job without `wait` (spec, Limits: "Result retention | 1 minute
// after completion (up to 5 minutes when the wait parameter is used) | `/runsync` jobs"; "Retry after
// expiry | Not possible once results have expired") and a `ttl` that elapses while the job still waits
// (spec, Status: "`ttl` sets the job's time to live").
const MINUTE = 60_000;

test.describe('job states at the end of their life', () => {
  test('a FAILED /runsync job without wait cannot be retried 2 minutes after it failed', rules('LIMIT.RETRY.AFTER_EXPIRY', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('move the clock past the 1-minute /runsync retention');
    await setTimings(emu, { coldStartMs: 0, executionMs: 0 });
    const jobs = jobsFor({ api, emu, target });
    const sync = await jobs.runsync({ fail: 'expired after a minute' });
    const id = (sync.body as { id?: unknown } | undefined)?.id;
    test.skip(statusOf(sync) !== 'FAILED' || typeof id !== 'string', `setup: /runsync answered ${sync.status} ${sync.text.slice(0, 160)}, not a FAILED job`);
    // No wait parameter: retention is 1 minute, so 2 minutes later the result has expired.
    await emu.advance(2 * MINUTE);
    const res = await jobs.retry(id as string);
    const requeued = res.status >= 200 && res.status < 300 && (res.body as { status?: string } | undefined)?.status === 'IN_QUEUE';
    conform(must(!requeued, 'LIMIT.RETRY.AFTER_EXPIRY',
      `/retry 2 min after a /runsync job (no wait, 1-minute retention) failed answered ${res.status} ${res.text.slice(0, 200)}`));
  });

  test('a waiting job whose ttl elapses is gone: no longer counted as waiting, and it never runs', rules('JOB.STATUS.TTL', 'HEALTH.JOBS.COUNTS', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('know that nothing else runs on the endpoint; hold the job in the queue with a slow cold start');
    await setTimings(emu, { coldStartMs: 5 * MINUTE, executionMs: 0 });
    const jobs = jobsFor({ api, emu, target });
    const before = jobCounters(await jobs.health());
    const id = await jobs.submit({ echo: 'ttl while waiting' });
    const set = await jobs.status(id, { ttl: 10_000 });
    test.skip(statusOf(set) !== 'IN_QUEUE', `setup: /status?ttl=10000 answered ${set.status} ${set.text.slice(0, 160)}, not an IN_QUEUE job`);
    await emu.advance(11_000);
    const gone = await jobs.status(id);
    const expired = await jobs.health();
    // Past the cold start a worker is ready: a job still in the queue would run now.
    await emu.advance(6 * MINUTE);
    const again = await jobs.status(id);
    const later = await jobs.health();
    // The counters are held to what /status shows of the job at the same instant (gone: counted
    // nowhere), so a job the target still keeps fails JOB.STATUS.TTL alone. completed and failed
    // have no stated meaning over time: whether the job ran is read from its own status.
    conform(
      must(statusOf(gone) === undefined, 'JOB.STATUS.TTL', `11 s after ttl=10000 the job still answers ${gone.status} ${gone.text.slice(0, 160)}`),
      must(statusOf(gone) !== undefined || statusOf(again) === undefined, 'JOB.STATUS.TTL',
        `the job was gone 11 s after ttl=10000, yet 6 min later it answers ${again.status} ${again.text.slice(0, 160)}`),
      activeCountsConformance(expired, before, [statusOf(gone)], "11 s after the job's ttl of 10 s"),
      activeCountsConformance(later, before, [statusOf(again)], 'once a worker was ready'),
    );
  });
});
