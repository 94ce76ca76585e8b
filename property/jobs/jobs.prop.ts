import fc from 'fast-check';
import { test } from '../../contract/support/fixtures.js';
import { creates, rules } from '../../contract/support/rules.js';
import { setTimings } from '../../contract/specs/serverless/support/jobs.js';
import { checkProperty, runSeed } from '../support/run.js';
import { runConfig } from '../../lib/run-config.js';
import { jobCommands } from './arbitraries.js';
import { AUTOMATIC_RETRIES, EXECUTION_TIMEOUT_MS, JobModel } from './model.js';
import { RealEndpoint } from './real.js';

/** Runs and commands per run; CPC_JOB_MODEL_RUNS (in the run configuration) raises the budget for a longer search. */
const RUNS = runConfig().jobModelRuns;

test(`the job state machine follows its model through run, runsync, status, cancel, retry, purge and time (seed ${runSeed()})`, rules(
  'JOB.RUN.RESPONSE', 'JOB.HTTP.NO_REQUEST_BODY', 'JOB.STATE.CANCEL_QUEUED', 'JOB.STATE.CANCEL_IN_PROGRESS', 'JOB.STATE.RETRY_FAILED',
  'JOB.STATE.RETRY_TIMED_OUT', 'JOB.STATE.RETRY_SAME_ID', 'JOB.STATE.RETRY_NOT_REQUEUED_OTHERWISE', 'JOB.STATE.PURGE_REMOVES_QUEUED',
  'JOB.STATE.PURGE_KEEPS_RUNNING', 'JOB.PURGE.REMOVED_COUNT', 'HEALTH.JOBS.COUNTS', 'LIMIT.RUNSYNC.RETENTION_1_MIN',
  'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', 'LIMIT.RUN.RETENTION_30_MIN', 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', 'SERVICE.QB.AUTOMATIC_RETRIES',
  'SERVICE.QB.REQUESTS_BECOME_JOBS', 'LIMIT.RUNSYNC.DEFAULT_WAIT_90S',
  // Only where the virtual clock moves (an emulator world): one endpoint per run, workersMin 0.
  creates({ endpoints: RUNS, needs: 'control' }),
), async ({ api, emu }) => {
  emu.require('move the virtual clock under the model');
  test.setTimeout(240_000);
  await setTimings(emu, { coldStartMs: 0, executionMs: 0, executionTimeoutMs: EXECUTION_TIMEOUT_MS, automaticRetries: AUTOMATIC_RETRIES });
  const templateId = emu.world!.seeded.CPC_TEMPLATE_ID as string;
  await checkProperty(fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.commands(jobCommands(), { maxCommands: 30 }), async (workers, commands) => {
    const setup = async () => ({ model: new JobModel(workers) as never, real: (await RealEndpoint.create(api, emu, templateId, workers)) as never });
    await fc.asyncModelRun(setup, commands);
  }), { numRuns: RUNS });
});
