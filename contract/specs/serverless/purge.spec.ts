import { test } from '../../support/fixtures.js';
import { conform, must, needs, rules } from '../../support/rules.js';
import { jobJsonConformance, statusOf } from '../../checks/job-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { statusCodeConformance } from '../../checks/status.js';
import { jobsFor, setTimings } from './support/jobs.js';

// Spec: "Purge queue | `POST /purge-queue` | none | `{removed: integer, status: string}`; `status` is the
// lowercase word `completed`." Job status: "`IN_QUEUE` | `/purge-queue` | | removed | All waiting jobs are
// removed; jobs already running continue."
test.describe('/purge-queue', () => {
  test('/purge-queue answers {removed: integer, status: "completed"}', rules('JOB.PURGE.RESPONSE', 'JOB.HTTP.JSON', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const res = await jobs.purge();
    conform(
      jobJsonConformance(res),
      // The spec gives /purge-queue no success status: any 2xx with the body it shows.
      statusCodeConformance('JOB.PURGE.RESPONSE', res, 'success'),
      schemaConformance('JOB.PURGE.RESPONSE', 'purge-queue-response', res.body),
    );
  });

  test('/purge-queue removes every waiting job, counts them, and lets running jobs finish', rules(
    'JOB.STATE.PURGE_REMOVES_QUEUED', 'JOB.STATE.PURGE_KEEPS_RUNNING', 'JOB.PURGE.REMOVED_COUNT', 'JOB.PURGE.RESPONSE', needs('control', 'workerEndpoint'),
  ), async ({ api, emu, target }) => {
    emu.require('know which jobs are running when the queue is purged');
    await setTimings(emu, { coldStartMs: 1_000 });
    const jobs = jobsFor({ api, emu, target });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await jobs.submit({ sleepMs: 20_000, n: i }));
    await emu.advance(1_000);
    const before = await Promise.all(ids.map(async (id) => statusOf(await jobs.status(id))));
    const running = ids.filter((_, i) => before[i] === 'IN_PROGRESS');
    const queued = ids.filter((_, i) => before[i] === 'IN_QUEUE');
    test.skip(running.length === 0 || queued.length === 0, `setup: need running and waiting jobs, got ${before.join(', ')}`);
    const res = await jobs.purge();
    const removed = (res.body as { removed?: unknown } | undefined)?.removed;
    await emu.advance(30_000);
    const afterQueued = await Promise.all(queued.map(async (id) => statusOf(await jobs.status(id))));
    const afterRunning = await Promise.all(running.map(async (id) => statusOf(await jobs.status(id))));
    conform(
      schemaConformance('JOB.PURGE.RESPONSE', 'purge-queue-response', res.body),
      must(removed === queued.length, 'JOB.PURGE.REMOVED_COUNT', `removed is ${JSON.stringify(removed)}; ${queued.length} jobs were waiting`),
      must(afterQueued.every((s) => s === undefined || s === 'CANCELLED'), 'JOB.STATE.PURGE_REMOVES_QUEUED',
        `purged jobs later showed ${afterQueued.join(', ')}`),
      must(afterRunning.every((s) => s === 'COMPLETED'), 'JOB.STATE.PURGE_KEEPS_RUNNING', `jobs running at the purge ended ${afterRunning.join(', ')}`),
    );
  });
});
