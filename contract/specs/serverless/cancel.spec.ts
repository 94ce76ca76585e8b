import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, observe, rules } from '../../support/rules.js';
import { jobWork } from '../../../lib/worker-time.js';
import { jobHandleConformance, statusOf } from '../../checks/job-conformance.js';
import { jobsFor, setTimings } from './support/jobs.js';

// Spec, Job status: "`IN_QUEUE` or `IN_PROGRESS` | `/cancel/<job_id>` | | `CANCELLED` | A queued job is removed
// before it starts; an in-progress job is stopped; returns immediately."
test.describe('/cancel', () => {
  test('cancelling a queued job makes it CANCELLED for good', rules('JOB.STATE.CANCEL_QUEUED', 'JOB.CANCEL.RESPONSE', 'JOB.OBJECT.ID', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('hold the job in the queue with a slow cold start');
    await setTimings(emu, { coldStartMs: 30_000 });
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ sleepMs: 1_000 });
    const before = statusOf(await jobs.status(id));
    const res = await jobs.cancel(id);
    const { seen } = await jobs.until(id, () => false, { stepMs: 15_000, maxVirtualMs: 120_000 });
    conform(
      must(before === 'IN_QUEUE', 'JOB.STATE.CANCEL_QUEUED', `setup: the job was ${before}, not IN_QUEUE`),
      jobHandleConformance('JOB.CANCEL.RESPONSE', res, 'CANCELLED', id),
      must(seen.every((s) => s === 'CANCELLED' || s === undefined), 'JOB.STATE.CANCEL_QUEUED', `after /cancel the job went through ${seen.join(' → ')}`),
      must(seen[0] === 'CANCELLED', 'JOB.STATE.CANCEL_QUEUED', `right after /cancel the job is ${seen[0]}`),
    );
  });

  test('cancelling a running job stops it at once: CANCELLED, never COMPLETED', rules(
    'JOB.STATE.CANCEL_IN_PROGRESS', 'JOB.STATE.CANCEL_IMMEDIATE', 'JOB.CANCEL.RESPONSE', needs('workerEndpoint'), creates({ work: jobWork(60_000) }),
  ), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ sleepMs: 60_000 });
    const { last } = await jobs.until(id, (s) => s === 'IN_PROGRESS' || s === 'COMPLETED', { stepMs: 1_000, maxVirtualMs: 30_000, maxRealMs: 45_000 });
    test.skip(statusOf(last) !== 'IN_PROGRESS', `the job never showed IN_PROGRESS (${statusOf(last)}); the endpoint had no worker for it`);
    const res = await jobs.cancel(id);
    // The target's answer time: a wait for the rate limit before sending is the client's, not the target's.
    const took = Math.round(res.durationMs);
    // In real time, a read right after /cancel and one 5 s later: the job's status then and after.
    const { seen } = await jobs.until(id, () => false, { stepMs: 20_000, maxVirtualMs: 120_000, maxRealMs: 5_000, pauseMs: 5_000 });
    conform(
      jobHandleConformance('JOB.CANCEL.RESPONSE', res, 'CANCELLED', id),
      jobHandleConformance('JOB.STATE.CANCEL_IN_PROGRESS', res, 'CANCELLED', id),
      must(seen.every((s) => s === 'CANCELLED' || s === undefined), 'JOB.STATE.CANCEL_IN_PROGRESS', `after /cancel the running job went through ${seen.join(' → ')}`),
      // On the emulator the clock stands still during /cancel, so an answer proves no waiting for the handler.
      must(took < 30_000, 'JOB.STATE.CANCEL_IMMEDIATE', `/cancel took ${took} ms for a 60 s handler`),
    );
  });

  // Spec, Serverless job operations: Cancel, Retry and Purge queue take "Request: none". Sent with
  // no body at all (no Content-Type either), each does what the spec says; then the same three with
  // an empty body and with {} are recorded. One failed job serves every /retry: retried, it runs its
  // input again and fails again, ready for the next form. So that /purge-queue never removes it
  // while it waits again, each form purges before it retries.
  test('cancel, retry and purge-queue sent with no request body are carried out; with an empty body and with {} they are recorded', rules(
    'JOB.HTTP.NO_REQUEST_BODY', 'JOB.STATE.RETRY_SAME_ID', 'JOB.HTTP.EMPTY_BODY_POST', needs('workerEndpoint'),
    // The waiting job, the failed one (sent, then retried three times) and a 60 s job per form.
    creates({ work: jobWork(600_000, { ms: 0, runs: 4, failing: true }, { ms: 60_000, runs: 2 }) }),
  ), async ({ api, emu, target }) => {
    const rule = 'JOB.HTTP.NO_REQUEST_BODY';
    const jobs = jobsFor({ api, emu, target });
    const waiting = await jobs.submit({ sleepMs: 600_000 });
    const failed = await jobs.submit({ fail: 'for retry' });
    const untilFailed = () => jobs.until(failed, (s) => s === 'FAILED', { stepMs: 1_000, maxVirtualMs: 30_000, maxRealMs: 60_000 });
    const { last } = await untilFailed();
    test.skip(statusOf(last) !== 'FAILED', `setup: the failing job ended ${statusOf(last)}, not FAILED`);
    const cancel = await jobs.cancel(waiting);
    const purge = await jobs.purge();
    const retry = await jobs.retry(failed);
    const purged = (purge.body ?? {}) as { status?: unknown };
    conform(
      jobHandleConformance(rule, cancel, 'CANCELLED', waiting),
      jobHandleConformance(rule, retry, 'IN_QUEUE', failed, 'JOB.STATE.RETRY_SAME_ID'),
      must(purge.status >= 200 && purge.status < 300 && purged.status === 'completed', rule, `/purge-queue with no body answered ${purge.status} ${purge.text.slice(0, 160)}`),
    );
    const seen: Record<string, number> = {};
    const empty = { rawBody: '', contentType: 'application/json' };
    for (const [form, options] of [['empty body', empty], ['{}', { body: {} }]] as const) {
      const id = await jobs.submit({ sleepMs: 60_000 });
      // The job retried before (in the last form, or with no body) has failed again: a FAILED job to retry.
      await untilFailed();
      seen[`cancel, ${form}`] = (await api.op('cancelJob', { params: { endpointId: jobs.endpointId, jobId: id }, ...options })).status;
      seen[`purge-queue, ${form}`] = (await api.op('purgeQueue', { params: { endpointId: jobs.endpointId }, ...options })).status;
      seen[`retry, ${form}`] = (await api.op('retryJob', { params: { endpointId: jobs.endpointId, jobId: failed }, ...options })).status;
    }
    observe('JOB.HTTP.EMPTY_BODY_POST', seen);
  });
});
