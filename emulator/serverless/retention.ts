import type { TimerHandle, VirtualClock } from '../clock.js';
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

interface ExpiryList { jobs: (JobRecord | undefined)[]; at: number[]; head: number; timer: TimerHandle | undefined }

/**
 * Expiry of finished jobs, one FIFO per retention length. Jobs finish in clock order and a
 * list's retention is fixed, so each list is sorted by construction and needs one timer, for
 * its head: a million retained jobs cost two arrays, not a million timers. An entry whose job
 * was retried, given a `ttl` or removed since is skipped (`onExpire` checks `job.expiresAt`).
 */
export class RetentionLists {
  readonly #lists = new Map<number, ExpiryList>();

  constructor(private readonly clock: VirtualClock, private readonly onExpire: (job: JobRecord, at: number) => void) {}

  add(job: JobRecord, at: number, retention: number): void {
    let list = this.#lists.get(retention);
    if (!list) { list = { jobs: [], at: [], head: 0, timer: undefined }; this.#lists.set(retention, list); }
    list.jobs.push(job);
    list.at.push(at);
    if (!list.timer) this.#arm(list);
  }

  dispose(): void {
    for (const list of this.#lists.values()) list.timer?.cancel();
    this.#lists.clear();
  }

  #arm(list: ExpiryList): void {
    list.timer = this.clock.at(list.at[list.head]!, () => this.#fire(list));
  }

  #fire(list: ExpiryList): void {
    list.timer = undefined;
    const now = this.clock.now();
    while (list.head < list.jobs.length && list.at[list.head]! <= now) {
      const job = list.jobs[list.head]!;
      const at = list.at[list.head]!;
      list.jobs[list.head++] = undefined;
      this.onExpire(job, at);
    }
    if (list.head > 1024 && list.head * 2 > list.jobs.length) {
      list.jobs = list.jobs.slice(list.head);
      list.at = list.at.slice(list.head);
      list.head = 0;
    }
    if (list.head < list.jobs.length) this.#arm(list);
  }
}
