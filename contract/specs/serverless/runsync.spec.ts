import { test } from '../../support/fixtures.js';
import { conform, must, needs, observe, rules } from '../../support/rules.js';
import { jobObjectConformance, plainOutput, statusOf } from '../../checks/job-conformance.js';
import { inFlight, jobsFor, release, setTimings, TERMINAL } from './support/jobs.js';

// Spec: "Synchronous run | `POST /runsync` ... | Job object with `status`, `output`, `delayTime`, `executionTime`, `id`."
test.describe('/runsync', () => {
  test('/runsync of a quick job answers the COMPLETED job object', rules(
    'JOB.RUNSYNC.RESPONSE', 'JOB.OBJECT.TIMES_ON_COMPLETED', 'JOB.OBJECT.ID', 'JOB.OBJECT.STATUS_VALUES',
    'JOB.RUNSYNC.SUCCESS_200', 'JOB.HTTP.JSON', needs('workerEndpoint'),
  ), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const input = { echo: 'runsync', n: 7 };
    // On a virtual clock a job that never ends holds /runsync until the clock moves: released
    // past the longest wait, the answer is the job as it stands (a real clock ends the wait itself).
    const { value: res } = await release(emu, inFlight(jobs.runsync(input)));
    observe('JOB.RUNSYNC.SUCCESS_200', res.status);
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown; output?: unknown };
    conform(
      jobObjectConformance(res),
      must(res.status >= 200 && res.status < 300, 'JOB.RUNSYNC.RESPONSE', `/runsync answered ${res.status}: ${res.text.slice(0, 200)}`, res),
      must(body.status === 'COMPLETED', 'JOB.RUNSYNC.RESPONSE', `a job that ends at once was answered ${JSON.stringify(body.status)}`, res),
      must('output' in body, 'JOB.RUNSYNC.RESPONSE', 'the COMPLETED job object has no output', res),
      must(JSON.stringify(body.output) === JSON.stringify(plainOutput(input)), 'JOB.RUNSYNC.RESPONSE', `runSync: the output ${JSON.stringify(body.output)} is not the handler's ${JSON.stringify(plainOutput(input))} (its input echoed, HANDLER.md)`, res),
    );
  });

  test('delayTime and executionTime are recorded against the time the job waited and ran', rules('JOB.OBJECT.TIME_UNIT', 'JOB.OBJECT.TIMES_ON_COMPLETED', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const sleepMs = 2_000;
    let res;
    let measured: Record<string, number>;
    if (emu.available) {
      // Virtual time: a 1.5 s cold start, then the handler sleeps 2 s.
      await setTimings(emu, { coldStartMs: 1_500 });
      const pending = inFlight(jobs.runsync({ sleepMs }));
      await jobs.untilActive(1);
      await emu.advance(1_500);
      await emu.advance(sleepMs);
      res = (await release(emu, pending)).value;
      measured = { waitedMs: 1_500, ranMs: sleepMs };
    } else {
      res = await jobs.runsync({ sleepMs });
      measured = { wallMs: Math.round(res.durationMs), handlerSleepMs: sleepMs };
    }
    const body = (res.body ?? {}) as { delayTime?: number; executionTime?: number };
    observe('JOB.OBJECT.TIME_UNIT', { delayTime: body.delayTime, executionTime: body.executionTime, ...measured,
      unit: typeof body.executionTime === 'number' ? (body.executionTime >= sleepMs * 0.9 ? 'milliseconds' : 'seconds or other') : 'unknown' });
    conform(jobObjectConformance(res));
  });

  test('/runsync whose wait elapses first answers the job as it stands; status-sync then follows it', rules(
    'JOB.RUNSYNC.WAIT_ELAPSED', 'JOB.STATUS_SYNC.LONG_POLL', 'JOB.OBJECT.ID', 'JOB.OBJECT.STATUS_VALUES', needs('workerEndpoint'),
  ), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const pending = inFlight(jobs.runsync({ sleepMs: 5_000 }, { wait: 1_000 }));
    if (emu.available) { await jobs.untilActive(1); await emu.advance(1_000); }
    const { value: res, late } = await release(emu, pending);
    const body = (res.body ?? {}) as { id?: string; status?: string };
    observe('JOB.RUNSYNC.WAIT_ELAPSED', { status: res.status, jobStatus: body.status, fields: Object.keys(body).sort(), ...(late ? { answeredLate: 'not within 2 s of the 1 s wait' } : {}) });
    conform(jobObjectConformance(res));
    if (res.status < 200 || res.status >= 300 || typeof body.id !== 'string' || TERMINAL.has(body.status ?? '')) return;
    const followUp = inFlight(api.op('getJobStatusSync', { params: { endpointId: jobs.endpointId, jobId: body.id }, query: { wait: 10_000 } }));
    if (emu.available) await emu.advance(4_000);
    const { value: sync } = await release(emu, followUp);
    observe('JOB.STATUS_SYNC.LONG_POLL', { status: sync.status, jobStatus: statusOf(sync) });
    if (sync.status >= 200 && sync.status < 300) conform(jobObjectConformance(sync));
  });
});
