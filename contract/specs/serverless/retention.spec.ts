import { test } from '../../support/fixtures.js';
import { conform, must, needs, rules } from '../../support/rules.js';
import { statusOf } from '../../checks/job-conformance.js';
import { jobsFor, TERMINAL, type Jobs } from './support/jobs.js';
import { SetupError } from '../../../lib/errors.js';
import { RETENTION_MS, WAIT_MS } from '../../../lib/iso/spec-constants.js';

// Spec, Limits: "Result retention | 1 minute after completion (up to 5 minutes when the wait parameter
// is used) | `/runsync` jobs"; "Result retention | 30 minutes after completion | `/run` jobs".

/** Runs a job that completes at once and returns its id (the clock has not moved since). */
async function completedSync(jobs: Jobs, query: Record<string, number> = {}): Promise<string> {
  const res = await jobs.runsync({ echo: 'kept' }, query);
  if (statusOf(res) !== 'COMPLETED') throw new SetupError(`setup: /runsync answered ${res.status} ${res.text.slice(0, 200)}`);
  return (res.body as { id: string }).id;
}

const readable = async (jobs: Jobs, id: string): Promise<boolean> => statusOf(await jobs.status(id)) === 'COMPLETED';

test.describe('result retention', () => {
  test('a /runsync result stays readable for 1 minute after completion', rules('LIMIT.RUNSYNC.RETENTION_1_MIN', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('move the clock through the 1-minute retention');
    const jobs = jobsFor({ api, emu, target });
    const id = await completedSync(jobs);
    await emu.advance(RETENTION_MS.runsync - 1_000);
    const res = await jobs.status(id);
    conform(must(statusOf(res) === 'COMPLETED' && 'output' in (res.body as object), 'LIMIT.RUNSYNC.RETENTION_1_MIN',
      `59 s after completion /status answered ${res.status}: ${res.text.slice(0, 200)}`));
  });

  test('a /runsync result with wait is gone 5 minutes after completion', rules('LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('move the clock past the 5-minute retention');
    const jobs = jobsFor({ api, emu, target });
    const id = await completedSync(jobs, { wait: 30_000 });
    await emu.advance(RETENTION_MS.runsyncWithWait + 1_000);
    const res = await jobs.status(id);
    conform(must(statusOf(res) !== 'COMPLETED', 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', `5 min 1 s after completion the result is still readable: ${res.text.slice(0, 200)}`, res));
  });

  test('wait=1000 and wait=300000 give the same retention', rules('LIMIT.RUNSYNC.WAIT_NOT_RETENTION', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('compare retention at fixed points of virtual time');
    const jobs = jobsFor({ api, emu, target });
    const short = await completedSync(jobs, { wait: WAIT_MS.min });
    const long = await completedSync(jobs, { wait: WAIT_MS.max });
    const findings = [];
    let elapsed = 0;
    for (const at of [30_000, RETENTION_MS.runsync + 1_000, 180_000, RETENTION_MS.runsyncWithWait + 1_000]) {
      await emu.advance(at - elapsed);
      elapsed = at;
      const [a, b] = [await readable(jobs, short), await readable(jobs, long)];
      findings.push(...must(a === b, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION', `${at / 1000} s after completion: wait=1000 result ${a ? 'readable' : 'gone'}, wait=300000 result ${b ? 'readable' : 'gone'}`));
      if (at > RETENTION_MS.runsyncWithWait) findings.push(...must(!a && !b, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION', 'a result is still readable more than 5 minutes after completion'));
    }
    conform(findings);
  });

  test('a /run result stays readable for 30 minutes after completion', rules('LIMIT.RUN.RETENTION_30_MIN', needs('control', 'workerEndpoint')), async ({ api, emu, target }) => {
    emu.require('move the clock through the 30-minute retention');
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ echo: 'kept' });
    // The job may wait in a queue first (the spec bounds no queueing): read once a second until
    // it completes, so it completed less than a second before it was seen COMPLETED.
    const step = 1_000;
    const { seen, last } = await jobs.until(id, (s) => s !== undefined && TERMINAL.has(s), { stepMs: step, maxVirtualMs: 5 * 60_000 });
    test.skip(statusOf(last) !== 'COMPLETED', `setup: the job showed ${seen.join(' → ')} and had not completed after 5 min of virtual time`);
    await emu.advance(RETENTION_MS.run - 2 * step);
    const res = await jobs.status(id);
    conform(must(statusOf(res) === 'COMPLETED' && 'output' in (res.body as object), 'LIMIT.RUN.RETENTION_30_MIN',
      `less than 29 min 59 s after completion /status answered ${res.status}: ${res.text.slice(0, 200)}`));
  });
});
