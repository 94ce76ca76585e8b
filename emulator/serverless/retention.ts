import type { World } from '../world.js';
import type { JobRecord } from './job.js';

/**
 * Spec, Limits: results are kept "1 minute after completion (up to 5 minutes when the wait
 * parameter is used)" for /runsync jobs and "30 minutes after completion" for /run jobs. With
 * `wait`, the emulator keeps the full 5 minutes whatever the wait value ("it controls how long
 * the request waits, not retention").
 */
export const RETENTION_MS = {
  runsync: 60_000,
  runsyncWithWait: 300_000,
  run: 1_800_000,
} as const;

/** How long a finished job stays readable, with the retention faults applied. */
export function retentionMs(world: World, job: Pick<JobRecord, 'sync' | 'waitGiven'>): number {
  if (!job.sync) return world.fault('serverless.run-retention-10min') ? 600_000 : RETENTION_MS.run;
  if (job.waitGiven) return world.fault('serverless.wait-retention-10min') ? 600_000 : RETENTION_MS.runsyncWithWait;
  return world.fault('serverless.runsync-retention-30s') ? 30_000 : RETENTION_MS.runsync;
}
