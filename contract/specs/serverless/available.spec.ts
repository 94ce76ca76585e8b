import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, rules } from '../../support/rules.js';
import { jobWork, QUICK_WORK, type JobWork } from '../../../lib/worker-time.js';
import { OWN_RULE } from '../../support/availability.js';
import { operationLine } from '../../../lib/client/absence.js';
import type { ApiResult } from '../../../lib/client/api.js';
import type { OperationName } from '../../../lib/client/operations.js';
import { jobsFor, type Jobs } from './support/jobs.js';

/**
 * One call of each job operation, as the spec shows it, about a job of the test's own: the job
 * each needs is made with /run (a /run that is not there blocks them, and fails only its own test).
 */
const CALLS: Partial<Record<OperationName, (jobs: Jobs) => Promise<ApiResult>>> = {
  run: (jobs) => jobs.run({ echo: 'available' }),
  runSync: (jobs) => jobs.runsync({ echo: 'available' }),
  getJobStatus: async (jobs) => jobs.status(await jobs.submit({ echo: 'available' })),
  streamJob: async (jobs) => jobs.stream(await jobs.submit({ stream: 1 })),
  cancelJob: async (jobs) => jobs.cancel(await jobs.submit({ sleepMs: 600_000 })),
  retryJob: async (jobs) => jobs.retry(await jobs.submit({ fail: 'available' })),
  purgeQueue: (jobs) => jobs.purge(),
  getHealth: (jobs) => jobs.health(),
};

/** The jobs of a call beyond a quick one: the job to cancel sleeps 10 minutes, the one to retry fails (and runs again). */
const WORK: Partial<Record<OperationName, JobWork>> = { cancelJob: jobWork(600_000), retryJob: jobWork({ ms: 0, runs: 2, failing: true }) };

// Spec, Serverless job operations: "Operation | Request | Response" lists each operation with its
// method and path, and "Bodies and responses are JSON." An operation whose route answers 404 as
// an unknown route does, whose method answers 405 or 501, or that answers a page instead of JSON,
// is not there: that is its own rule's one finding (contract/support/availability.ts), and every
// other rule that needs it is blocked, naming the answer.
test.describe('each job operation is served at its method and path', () => {
  for (const [operation, call] of Object.entries(CALLS) as [OperationName, (jobs: Jobs) => Promise<ApiResult>][]) {
    const rule = OWN_RULE[operation]!;
    test(`${operationLine(operation)} is served`, rules(rule, needs('workerEndpoint'), creates({ work: WORK[operation] ?? QUICK_WORK })), async ({ api, emu, target }) => {
      const res = await call(jobsFor({ api, emu, target }));
      conform(must(res.absent === undefined, rule, `${res.absent}: the operation the spec lists as "${operationLine(operation)}" is not served there`, res));
    });
  }
});
