import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, observe, rules } from '../../support/rules.js';
import { jobWork } from '../../../lib/worker-time.js';
import { jobObjectConformance, statusOf, statusText } from '../../checks/job-conformance.js';
import { EARLY_ANSWER_WINDOW_MS, inFlight, jobsFor, judgeWithinWait, release, settlesWithin, TERMINAL, type WaitJudgement } from './support/jobs.js';

/**
 * Applies a {@link WaitJudgement} to `rule`: an ended job must be COMPLETED; an early answer or
 * none breaks the rule; a job that had not ended once the wait passed decides nothing, and the
 * test is skipped with that reason.
 */
function applyWait(rule: string, judged: WaitJudgement, what: string): void {
  if (judged.kind === 'late-job') test.skip(true, judged.why);
  conform(
    judged.kind === 'ended' ? jobObjectConformance(judged.res) : [],
    must(judged.kind !== 'early' && judged.kind !== 'no-answer', rule, judged.kind === 'ended' ? '' : `${what}: ${judged.why}`),
    must(judged.kind !== 'ended' || statusOf(judged.res) === 'COMPLETED', rule, `${what} was answered ${statusOf(judged.res)}`),
  );
}
import { WAIT_MS } from '../../../lib/iso/spec-constants.js';

// Spec, Limits: "Default wait | 90 seconds | `/runsync`"; "`wait` range | 1000 to 300000 milliseconds;
// it controls how long the request waits, not retention".
test.describe('/runsync wait', () => {
  // In real time the request is simply waited for (about 80 s): a queue or a cold start that
  // ends the job past the wait decides nothing (judgeWithinWait), never a failure.
  test('without wait, /runsync waits up to 90 s: a job ending at 80 s is answered COMPLETED', rules('LIMIT.RUNSYNC.DEFAULT_WAIT_90S', needs('workerEndpoint'), creates({ work: jobWork(80_000) })), async ({ api, emu, target }) => {
    if (!emu.available) test.setTimeout(WAIT_MS.default + 60_000);
    const jobs = jobsFor({ api, emu, target });
    const pending = inFlight(jobs.runsync({ sleepMs: 80_000 }));
    if (emu.available) await jobs.untilActive(1);
    applyWait('LIMIT.RUNSYNC.DEFAULT_WAIT_90S', await judgeWithinWait(emu, pending, 80_000, WAIT_MS.default), 'a job that ends 80 s in, without wait');
  });

  test('without wait, /runsync of a longer job answers once 90 s have passed, not later', rules('LIMIT.RUNSYNC.DEFAULT_WAIT_90S', 'JOB.RUNSYNC.WAIT_ELAPSED', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('let 90 s pass under a pending /runsync');
    const jobs = jobsFor({ api, emu, target });
    const pending = inFlight(jobs.runsync({ sleepMs: 200_000 }));
    await jobs.untilActive(1);
    await emu.advance(89_000);
    const early = await settlesWithin(pending, EARLY_ANSWER_WINDOW_MS);
    await emu.advance(1_000);
    const { value: res, late } = await release(emu, pending, 5_000);
    const onTime = !late;
    observe('JOB.RUNSYNC.WAIT_ELAPSED', { status: res.status, jobStatus: statusOf(res) });
    conform(
      must(!early, 'LIMIT.RUNSYNC.DEFAULT_WAIT_90S', '/runsync answered before 89 s had passed'),
      must(onTime, 'LIMIT.RUNSYNC.DEFAULT_WAIT_90S', '/runsync had not answered 90 s after the request'),
      jobObjectConformance(res),
    );
  });

  for (const wait of [WAIT_MS.min, WAIT_MS.default, WAIT_MS.max]) {
    test(`/runsync accepts wait=${wait}`, rules('LIMIT.RUNSYNC.WAIT_RANGE', needs('workerEndpoint')), async ({ api, emu, target }) => {
      const jobs = jobsFor({ api, emu, target });
      const res = await jobs.runsync({ echo: wait }, { wait });
      // Accepted is what the rule asks. A job that ends at once may still wait in a queue or for a
      // cold start longer than the wait (the spec bounds neither): a non-terminal answer is legal.
      const status = statusOf(res);
      conform(
        must(res.status >= 200 && res.status < 300, 'LIMIT.RUNSYNC.WAIT_RANGE', `wait=${wait} was refused: ${res.status} ${res.text.slice(0, 200)}`, res),
        must(status === 'COMPLETED' || !TERMINAL.has(status ?? ''), 'LIMIT.RUNSYNC.WAIT_RANGE', `a job that ends at once, with wait=${wait}, was answered ${status}`, res),
      );
    });
  }

  test('with wait=5000, /runsync answers a running job after 5 s and not later', rules('LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    if (emu.available) {
      const pending = inFlight(jobs.runsync({ sleepMs: 60_000 }, { wait: 5_000 }));
      await jobs.untilActive(1);
      await emu.advance(4_900);
      const early = await settlesWithin(pending, EARLY_ANSWER_WINDOW_MS);
      await emu.advance(100);
      const { value: res, late } = await release(emu, pending, 5_000);
      const onTime = !late;
      conform(
        must(!early, 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', '/runsync with wait=5000 answered before 4.9 s'),
        must(onTime, 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', '/runsync with wait=5000 had not answered after 5 s'),
        must(!TERMINAL.has(statusOf(res) ?? ''), 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', `a 60 s job was answered ${statusText(res)} after 5 s`, res),
      );
    } else {
      const res = await jobs.runsync({ sleepMs: 20_000 }, { wait: 3_000 });
      // The target's answer time: a wait for the rate limit before sending is the client's, not the target's.
      const took = Math.round(res.durationMs);
      conform(must(took < 10_000, 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', `/runsync with wait=3000 took ${took} ms for a 20 s job`),
        must(!TERMINAL.has(statusOf(res) ?? ''), 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', `a 20 s job was answered ${statusText(res)} after ${took} ms`, res));
    }
  });

  test('with wait=5000, /runsync answers a job ending at 3 s as COMPLETED', rules('LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const pending = inFlight(jobs.runsync({ sleepMs: 3_000 }, { wait: 5_000 }));
    if (emu.available) await jobs.untilActive(1);
    applyWait('LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', await judgeWithinWait(emu, pending, 3_000, 5_000), 'a job ending at 3 s with wait=5000');
  });

  test('/runsync with a wait outside 1000..300000 is recorded', rules('LIMIT.RUNSYNC.WAIT_OUT_OF_RANGE', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const seen: Record<string, unknown> = {};
    // Just below the range, just above it, and not a number: each way out of range, once.
    for (const wait of ['999', '300001', 'soon']) {
      const res = await jobs.runsync({ echo: 1 }, { wait }, { timeoutMs: 30_000 });
      seen[wait] = { status: res.status, contentType: res.contentType, jobStatus: statusOf(res) };
    }
    observe('LIMIT.RUNSYNC.WAIT_OUT_OF_RANGE', seen);
  });
});
