import fc from 'fast-check';
import { RETENTION_MS } from '../../lib/iso/spec-constants.js';
import { EXECUTION_TIMEOUT_MS, type JobInput } from './model.js';
import { AdvanceCommand } from './commands/advance.js';
import { CancelCommand } from './commands/cancel.js';
import { HealthCommand } from './commands/health.js';
import { ProgressCommand } from './commands/progress.js';
import { PurgeCommand } from './commands/purge.js';
import { RetryCommand } from './commands/retry.js';
import { RunCommand } from './commands/run.js';
import { RunsyncCommand } from './commands/runsync.js';
import { StatusCommand } from './commands/status.js';

/**
 * Handler inputs: quick, short, slow and over-the-timeout jobs, each succeeding or failing.
 * Every attempt takes time, so a job a worker takes shows IN_PROGRESS at that instant: the
 * model learns which waiting jobs the target started from their statuses (lockstep.ts).
 */
export const jobInput = (): fc.Arbitrary<JobInput> =>
  fc.record({ sleepMs: fc.constantFrom(1_000, 5_000, EXECUTION_TIMEOUT_MS + 10_000), fail: fc.boolean() });

/** Clock steps around the limits: within a job, past the timeout, past each retention. */
const steps = [500, 1_000, 5_000, EXECUTION_TIMEOUT_MS, RETENTION_MS.runsync + 1_000, RETENTION_MS.runsyncWithWait + 1_000, RETENTION_MS.run + 1_000];

/** Every command of the job state machine, for `fc.commands`. */
export function jobCommands(): fc.Arbitrary<fc.AsyncCommand<never, never>>[] {
  const pick = fc.nat({ max: 1_000 });
  return [
    jobInput().map((i) => new RunCommand(i)),
    fc.tuple(jobInput(), fc.constantFrom(undefined, 1_050, 7_050)).map(([i, wait]) => new RunsyncCommand(i, wait)),
    pick.map((p) => new StatusCommand(p)),
    pick.map((p) => new CancelCommand(p)),
    pick.map((p) => new RetryCommand(p)),
    fc.constant(new PurgeCommand()),
    fc.constant(new HealthCommand()),
    fc.oneof(fc.constantFrom(...steps), fc.integer({ min: 1, max: RETENTION_MS.run + 60_000 })).map((ms) => new AdvanceCommand(ms)),
    fc.constant(new ProgressCommand()),
  ] as unknown as fc.Arbitrary<fc.AsyncCommand<never, never>>[];
}
