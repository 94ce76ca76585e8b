import { test } from '../../support/fixtures.js';
import { conform, must, needs, rules } from '../../support/rules.js';
import { jobObjectConformance, statusOf } from '../../checks/job-conformance.js';
import { jobCounters } from '../../checks/health-conformance.js';
import { isSuccess } from '../../checks/status.js';
import { inFlight, jobsFor, release, setTimings, TERMINAL, type Jobs } from './support/jobs.js';
import { RETENTION_MS } from '../../../lib/iso/spec-constants.js';

// Job-state cases beyond the common paths (found by mutation testing, npm run mutation): each
// holds a rule of the spec's "Job status" table, "Limits" or the Health object in a situation
// the other specs do not reach (a second attempt, a cancelled job still in the queue, a ttl
// beyond the retention limit).
const MINUTE = 60_000;
const ended = (s: string | undefined): boolean => s !== undefined && TERMINAL.has(s);

const STEP_MS = 1_000;

/** What reading /status once a second until the job ends showed (the clock moves between reads). */
interface Watched { status: string | undefined; seen: string[]; runningReads: number }

async function watchUntilEnd(jobs: Jobs, id: string): Promise<Watched> {
  const watched: Watched = { status: undefined, seen: [], runningReads: 0 };
  for (let moved = 0; ; moved += STEP_MS) {
    const status = statusOf(await jobs.status(id));
    watched.status = status;
    if (watched.seen.at(-1) !== String(status)) watched.seen.push(String(status));
    if (status === 'IN_PROGRESS') watched.runningReads++;
    if (ended(status) || moved >= 5 * MINUTE) return watched;
    await jobs.emu.advance(STEP_MS);
  }
}

/**
 * Whether the watched job ran more than one attempt of `attemptMs`: back IN_QUEUE after it had
 * been IN_PROGRESS, or IN_PROGRESS for longer than one attempt. Reads one second apart see one
 * attempt IN_PROGRESS at exactly attemptMs / 1000 of them, however long it waited in the queue
 * first (the spec bounds no queueing, so time to the end says nothing about attempts).
 */
function ranAgain(w: Watched, attemptMs: number): boolean {
  const running = w.seen.indexOf('IN_PROGRESS');
  return (running >= 0 && w.seen.indexOf('IN_QUEUE', running) > running) || w.runningReads * STEP_MS > attemptMs;
}

const shown = (w: Watched): string => `${w.seen.join(' → ')}, IN_PROGRESS at ${w.runningReads} reads a second apart`;

test.describe('job states beyond the first attempt', () => {
  test('a job cancelled while waiting is not counted by /purge-queue', rules('JOB.PURGE.REMOVED_COUNT', 'JOB.STATE.CANCEL_QUEUED', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('hold jobs in the queue with a slow cold start');
    await setTimings(emu, { coldStartMs: 5 * MINUTE });
    const jobs = jobsFor({ api, emu, target });
    const ids = [await jobs.submit({ n: 1 }), await jobs.submit({ n: 2 }), await jobs.submit({ n: 3 })];
    const waiting = await Promise.all(ids.map(async (id) => statusOf(await jobs.status(id))));
    test.skip(!waiting.every((s) => s === 'IN_QUEUE'), `setup: the jobs were ${waiting.join(', ')}, not all IN_QUEUE`);
    await jobs.cancel(ids[1]!);
    const res = await jobs.purge();
    const removed = (res.body as { removed?: unknown } | undefined)?.removed;
    const cancelled = await jobs.status(ids[1]!);
    conform(
      must(removed === 2, 'JOB.PURGE.REMOVED_COUNT', `2 jobs were IN_QUEUE (the third was CANCELLED before the purge); removed is ${JSON.stringify(removed)}`),
      must(cancelled.status === 404 || statusOf(cancelled) === 'CANCELLED', 'JOB.STATE.CANCEL_QUEUED', `the cancelled job then answered ${cancelled.status} ${cancelled.text.slice(0, 160)}`),
    );
  });

  test('a retried job that fails again is retried automatically, as a new one is', rules('SERVICE.QB.AUTOMATIC_RETRIES', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('time each attempt on the virtual clock');
    await setTimings(emu, { coldStartMs: 0, executionMs: 0, automaticRetries: 1 });
    const jobs = jobsFor({ api, emu, target });
    // Each attempt runs 10 s: a job IN_PROGRESS longer than that, or back IN_QUEUE, ran again.
    const attemptMs = 10_000;
    const id = await jobs.submit({ sleepMs: attemptMs, fail: 'every attempt' });
    const first = await watchUntilEnd(jobs, id);
    test.skip(first.status !== 'FAILED', `setup: the failing job showed ${shown(first)}`);
    const res = await jobs.retry(id);
    test.skip(!isSuccess(res), `setup: /retry answered ${res.status}`);
    const again = await watchUntilEnd(jobs, id);
    conform(must(ranAgain(first, attemptMs), 'SERVICE.QB.AUTOMATIC_RETRIES', `a new job failing every ${attemptMs} ms attempt showed ${shown(first)}: one attempt, no automatic retry`));
    test.skip(again.status !== 'FAILED', `setup: after /retry the job showed ${shown(again)}, not ended FAILED`);
    conform(must(ranAgain(again, attemptMs), 'SERVICE.QB.AUTOMATIC_RETRIES',
      `after /retry the job showed ${shown(again)}: one attempt, no automatic retry; a new job showed ${shown(first)}`));
  });

  test('after a retried job ends, no job counts as in progress', rules('HEALTH.JOBS.COUNTS', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('know that nothing else runs on the endpoint');
    await setTimings(emu, { coldStartMs: 0, executionMs: 0, automaticRetries: 0 });
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ sleepMs: 1_000, fail: 'twice' });
    const failed = await jobs.until(id, ended, { stepMs: 1_000, maxVirtualMs: MINUTE });
    test.skip(statusOf(failed.last) !== 'FAILED', `setup: the failing job showed ${failed.seen.join(' → ')}`);
    const before = jobCounters(await jobs.health());
    await jobs.retry(id);
    const { seen, last } = await jobs.until(id, ended, { stepMs: 1_000, maxVirtualMs: MINUTE });
    test.skip(statusOf(last) !== 'FAILED', `setup: after /retry the job showed ${seen.join(' → ')}`);
    const after = jobCounters(await jobs.health());
    conform(
      must(before.inProgress === 0 && after.inProgress === 0 && after.inQueue === 0, 'HEALTH.JOBS.COUNTS',
        `no job runs or waits, yet inProgress is ${before.inProgress} before /retry and ${after.inProgress} after the retried job ended (inQueue ${after.inQueue})`),
    );
  });

  test('a retried job that fails again expires like any other: no retry after its retention', rules('LIMIT.RETRY.AFTER_EXPIRY', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('move the clock past the 30-minute retention');
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ fail: 'again' });
    await jobs.until(id, ended, { stepMs: 1_000, maxVirtualMs: MINUTE });
    const first = await jobs.retry(id);
    test.skip(!isSuccess(first), `setup: the first /retry answered ${first.status}`);
    const { last } = await jobs.until(id, ended, { stepMs: 1_000, maxVirtualMs: MINUTE });
    test.skip(statusOf(last) !== 'FAILED', `setup: the retried job ended ${statusOf(last)}`);
    await emu.advance(RETENTION_MS.run + 1_000);
    const res = await jobs.retry(id);
    const requeued = res.status >= 200 && res.status < 300 && (res.body as { status?: string } | undefined)?.status === 'IN_QUEUE';
    conform(must(!requeued, 'LIMIT.RETRY.AFTER_EXPIRY', `/retry 30 min after the second failure answered ${res.status} ${res.text.slice(0, 200)}`, res));
  });

  test('a ttl longer than the retention limit keeps the job that long', rules('JOB.STATUS.TTL', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('move the clock past the 30-minute retention');
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ sleepMs: 10_000, echo: 'kept' });
    // Spec: "`ttl` sets the job's time to live": 40 minutes from this request, set while the job runs.
    const set = await jobs.status(id, { ttl: 40 * MINUTE });
    const { last } = await jobs.until(id, ended, { stepMs: 5_000, maxVirtualMs: MINUTE });
    test.skip(!isSuccess(set) || statusOf(last) !== 'COMPLETED', `setup: /status?ttl answered ${set.status}; the job ended ${statusOf(last)}`);
    await emu.advance(35 * MINUTE);
    const res = await jobs.status(id);
    conform(must(statusOf(res) === 'COMPLETED', 'JOB.STATUS.TTL',
      `35 min after completion (ttl 40 min, /run retention 30 min) /status answered ${res.status} ${res.text.slice(0, 160)}`));
  });

  test('a /runsync waiting on a job that /purge-queue removes answers a valid job object', rules('JOB.OBJECT.STATUS_VALUES', 'JOB.OBJECT.ID', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('hold the job in the queue while /runsync waits on it');
    await setTimings(emu, { coldStartMs: 5 * MINUTE });
    const jobs = jobsFor({ api, emu, target });
    const pending = inFlight(jobs.runsync({ n: 1 }, { wait: 60_000 }));
    await jobs.untilActive(1);
    const purge = await jobs.purge();
    test.skip(!isSuccess(purge), `setup: /purge-queue answered ${purge.status}`);
    // Whatever the answer (the spec does not show it), a job object in it carries a valid status.
    const { value: res } = await release(emu, pending);
    conform(jobObjectConformance(res));
  });
});
