import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, rules, unchecked } from '../../support/rules.js';
import { jobWork } from '../../../lib/worker-time.js';
import { jobHandleConformance, statusOf } from '../../checks/job-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { holdEndpoint } from '../../support/needs.js';
import { Jobs, statusesOf, TERMINAL } from './support/jobs.js';
import { activeCountsConformance, healthConformance, jobCounters, movedBack, requeueExplains } from '../../checks/health-conformance.js';

// The queue's rules in real time, on an endpoint of the run's own with workersMax 1 (provisioned
// from the worker image, run/provision/worker.ts): a long job takes its one worker, and the jobs
// sent after it wait in the queue for as long as the test needs them there. An emulator world
// decides the same rules on its virtual clock (cancel.spec.ts, purge.spec.ts, run.spec.ts).
// One test at a time: each reads the queue as its own.
test.describe.configure({ mode: 'serial' });
// Each test cancels its long job once done with it, so the endpoint's one worker is free for the next.

/** The long job's length: far longer than the test's reads (each test cancels it when done with it). */
const HOLD_MS = 240_000;
/** How long the long job may take to reach its worker (a cold start: the spec gives no time for it). */
const START_MS = 90_000;

/** Jobs on the workersMax 1 endpoint, its worker taken by a long job (the test is skipped where it never starts). */
async function held(jobs: Jobs): Promise<string> {
  test.setTimeout(START_MS + HOLD_MS + 90_000);
  const blocker = await jobs.submit({ sleepMs: HOLD_MS });
  const { last } = await jobs.until(blocker, (s) => s === 'IN_PROGRESS' || TERMINAL.has(s ?? ''), { maxRealMs: START_MS });
  test.skip(statusOf(last) !== 'IN_PROGRESS', `the long job never took the endpoint's one worker (${statusOf(last)}): nothing could be held in the queue`);
  return blocker;
}

/**
 * Whether the long job still held the worker after a request the test sent (a wait for the rate
 * limit may have let it end first): with one worker, jobs behind it were then still waiting.
 * Skips the test when it no longer did; answers the status it showed.
 */
async function stillHolding(jobs: Jobs, blocker: string, what: string): Promise<string | undefined> {
  const status = statusOf(await jobs.status(blocker));
  test.skip(status === 'COMPLETED', `the long job had ended by ${what} (the client waited for the rate limit): whether the jobs behind it still waited is unknown`);
  return status;
}

test.describe('jobs held in the queue (workersMax 1, real time)', () => {
  test('/run behind a running job answers IN_QUEUE; /cancel of the waiting job makes it CANCELLED for good', rules(
    'JOB.STATE.RUN_IN_QUEUE', 'JOB.RUN.RESPONSE', 'JOB.STATE.CANCEL_QUEUED', 'JOB.CANCEL.RESPONSE', 'JOB.OBJECT.ID', needs('holdEndpoint'), creates({ work: jobWork(HOLD_MS, 1_000) }),
  ), async ({ api, emu }) => {
    const jobs = new Jobs(api, holdEndpoint(test.info(), emu.world !== undefined), emu);
    const blocker = await held(jobs);
    const run = await jobs.run({ sleepMs: 1_000 });
    const id = jobs.submitted(run);
    const before = statusOf(await jobs.status(id));
    test.skip(before !== 'IN_QUEUE', `the job sent behind the long one was ${before}, not waiting: the queue could not be read`);
    const res = await jobs.cancel(id);
    await stillHolding(jobs, blocker, 'the /cancel');
    // The worker freed: a job still in the queue would start now and end within a second or two.
    await jobs.cancel(blocker);
    const { seen } = await jobs.until(id, () => false, { maxRealMs: 10_000, pauseMs: 10_000 });
    conform(
      jobHandleConformance('JOB.STATE.RUN_IN_QUEUE', run, 'IN_QUEUE'),
      jobHandleConformance('JOB.RUN.RESPONSE', run, 'IN_QUEUE'),
      jobHandleConformance('JOB.CANCEL.RESPONSE', res, 'CANCELLED', id),
      must(seen.every((s) => s === 'CANCELLED' || s === undefined), 'JOB.STATE.CANCEL_QUEUED', `after /cancel the waiting job went through ${seen.join(' → ')}, with the worker free`),
    );
  });

  test('/purge-queue removes the waiting jobs, counts them, and lets the running job finish; /health counts them meanwhile', rules(
    'JOB.STATE.PURGE_REMOVES_QUEUED', 'JOB.STATE.PURGE_KEEPS_RUNNING', 'JOB.PURGE.REMOVED_COUNT', 'JOB.PURGE.RESPONSE', 'HEALTH.JOBS.COUNTS', 'HEALTH.JOBS', needs('holdEndpoint'), creates({ work: jobWork(HOLD_MS, { ms: 1_000, runs: 3 }) }),
  ), async ({ api, emu }) => {
    const jobs = new Jobs(api, holdEndpoint(test.info(), emu.world !== undefined), emu);
    const start = jobCounters(await jobs.health());
    const blocker = await held(jobs);
    const queued: string[] = [];
    // Each job's status before /health: the long job's as held() read it, the others' as /run answered.
    const before: (string | undefined)[] = ['IN_PROGRESS'];
    for (let i = 0; i < 3; i++) {
      const run = await jobs.run({ sleepMs: 1_000, n: i });
      queued.push(jobs.submitted(run));
      before.push(statusOf(run));
    }
    // /health, then every job's status: the counters are compared with the statuses read on both
    // sides of the /health instant. The spec shows no move between statuses ("not shown"), and
    // queue-based endpoints retry failed attempts: a job read in an earlier status after than
    // before went back, so its status at the instant is unknown, and counters that one running
    // attempt re-queued meanwhile would explain decide nothing either (requeueExplains).
    const health = await jobs.health();
    const after = await statusesOf(jobs, [blocker, ...queued]);
    test.skip(after.slice(1).some((s) => s !== 'IN_QUEUE'), `the jobs sent behind the long one were ${after.slice(1).join(', ')}, not all waiting`);
    const back = movedBack(before, after);
    const counts = activeCountsConformance(health, start, after, 'with one job running and three waiting');
    const undecided = after[0] !== 'IN_PROGRESS' ? `the long job was ${after[0]} after /health was read: no instant to compare the counters with`
      : back.length ? `job(s) ${back.map((i) => `${[blocker, ...queued][i]} (${before[i]} → ${after[i]})`).join(', ')} were read in an earlier status after /health than before it: their status at the /health instant is unknown`
      : counts.length && requeueExplains(health, start, after) ? `/health counted one job fewer in progress and one more waiting than the statuses read around it (${after.join(', ')}): the running attempt may have been re-queued and taken again between the reads`
      : undefined;
    if (undecided) unchecked('HEALTH.JOBS.COUNTS', undecided);
    const res = await jobs.purge();
    const removed = (res.body as { removed?: unknown } | undefined)?.removed;
    // Still IN_PROGRESS: kept, and the three were still waiting at the purge. Gone or CANCELLED
    // before its time: the purge took the running job too.
    const running = await stillHolding(jobs, blocker, 'the purge');
    // The worker freed: a job the purge left in the queue would start now and end within seconds.
    await jobs.cancel(blocker);
    await new Promise((r) => setTimeout(r, 10_000));
    const purgedAfter = await Promise.all(queued.map(async (id) => statusOf(await jobs.status(id))));
    conform(
      healthConformance(health),
      undecided ? [] : counts,
      schemaConformance('JOB.PURGE.RESPONSE', 'purge-queue-response', res.body),
      must(removed === queued.length, 'JOB.PURGE.REMOVED_COUNT', `removed is ${JSON.stringify(removed)}; ${queued.length} jobs were waiting`),
      must(purgedAfter.every((s) => s === undefined || s === 'CANCELLED'), 'JOB.STATE.PURGE_REMOVES_QUEUED', `purged jobs later showed ${purgedAfter.join(', ')}`),
      must(running === 'IN_PROGRESS', 'JOB.STATE.PURGE_KEEPS_RUNNING', `right after the purge the job that was running showed ${running ?? 'nothing (gone)'}`),
    );
  });
});
