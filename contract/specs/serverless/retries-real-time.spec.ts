import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, rules } from '../../support/rules.js';
import { jobWork } from '../../../lib/worker-time.js';
import { statusOf } from '../../checks/job-conformance.js';
import { jobsFor, stopUnlessPassing, TERMINAL } from './support/jobs.js';

// Spec, What the service does: queue-based endpoints run jobs "with automatic retries on failure".
// In real time, from what /status shows of a job whose every attempt sleeps 10 s and then fails:
// a second attempt shows as the job back IN_QUEUE, or IN_PROGRESS for longer than one attempt;
// a job that ended FAILED sooner than two attempts could take was tried once. Between the two
// (reads too sparse to tell) the test decides nothing. An emulator world times each attempt on
// its virtual clock (job-edges.spec.ts).
const ATTEMPT_MS = 10_000;
const READ_EVERY_MS = 2_000;
/**
 * Once the job was seen running, the read that decides: a little over one attempt later. Still
 * running then, it ran longer than one attempt; back in the queue, it was requeued; ended, it
 * was tried once (two attempts cannot have ended yet). Reads in between decide nothing, so none
 * is sent; after it the job is read, less often, only until it ends.
 */
const DECISIVE_AFTER_MS = ATTEMPT_MS + 1_000;
const UNTIL_END_EVERY_MS = 4_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('a failing job is retried automatically: in real time, from the job\'s statuses', rules('SERVICE.QB.AUTOMATIC_RETRIES', needs('realClock', 'workerEndpoint'), creates({ work: jobWork({ ms: ATTEMPT_MS, failing: true }) })), async ({ api, emu, target }) => {
  test.setTimeout(5 * 60_000);
  const jobs = jobsFor({ api, emu, target });
  const sent = Date.now();
  const id = await jobs.submit({ sleepMs: ATTEMPT_MS, fail: 'every attempt' });
  const reads: { at: number; status: string | undefined }[] = [];
  for (;;) {
    const res = await jobs.status(id);
    // An answer that will not change (a 404, a 405) stops the wait at once, naming it.
    stopUnlessPassing(res, 'while the failing job was read until it ended');
    const status = statusOf(res);
    reads.push({ at: Date.now(), status });
    if (status !== undefined && TERMINAL.has(status)) break;
    test.skip(Date.now() - sent > 4 * 60_000, `the job had not ended 4 minutes after /run (${status})`);
    const running = reads.find((r) => r.status === 'IN_PROGRESS')?.at;
    await sleep(running === undefined ? READ_EVERY_MS : Math.max(running + DECISIVE_AFTER_MS - Date.now(), UNTIL_END_EVERY_MS));
  }
  const end = reads.at(-1)!;
  test.skip(end.status !== 'FAILED', `setup: the failing job ended ${end.status}`);
  const running = reads.filter((r) => r.status === 'IN_PROGRESS');
  const firstRun = reads.findIndex((r) => r.status === 'IN_PROGRESS');
  const requeued = firstRun >= 0 && reads.slice(firstRun).some((r) => r.status === 'IN_QUEUE');
  const longer = running.length > 1 && running.at(-1)!.at - running[0]!.at > ATTEMPT_MS;
  const once = end.at - sent < 2 * ATTEMPT_MS;
  const shown = reads.map((r) => `${r.status}@${Math.round((r.at - sent) / 1000)}s`).join(' → ');
  test.skip(!requeued && !longer && !once, `the reads (${shown}) neither show a second attempt nor rule one out`);
  conform(must(requeued || longer, 'SERVICE.QB.AUTOMATIC_RETRIES', `a job failing every ${ATTEMPT_MS / 1000} s attempt ended FAILED ${((end.at - sent) / 1000).toFixed(1)} s after /run, sooner than two attempts take: ${shown}`));
});
