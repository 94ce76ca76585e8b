import type { JobStatus } from '../../lib/types.gen.js';
import { RETENTION_MS } from '../../lib/iso/spec-constants.js';

/**
 * A model of one queue-based endpoint's job state machine, in virtual milliseconds, under the
 * timings the property sets: workers start at once (cold start 0), a job takes its `sleepMs`,
 * a job running past `EXECUTION_TIMEOUT_MS` ends TIMED_OUT, and a failed attempt is retried
 * once by the platform (at the back of the queue) before the job is FAILED.
 *
 * What it encodes: the spec's transitions (run → IN_QUEUE, cancel → CANCELLED, retry of
 * FAILED/TIMED_OUT → IN_QUEUE with the same id, purge removes waiting jobs and keeps running
 * ones), the retention limits (1 min, 5 min with wait, 30 min for /run), the wait range, and
 * where the spec says "not shown", only what any answer shows: successes are some 2xx, a retry
 * of another status does not requeue, removed and expired jobs answer some 4xx. Two choices of
 * the emulator remain (CHOICES.md), so the model needs the emulator's control surface: jobs start
 * in FIFO order (which waiting job a free worker takes is not shown), and health counters are
 * cumulative.
 */
export const EXECUTION_TIMEOUT_MS = 30_000;
export const AUTOMATIC_RETRIES = 1;

export interface JobInput { sleepMs: number; fail: boolean }

export interface ModelJob {
  /** Position in the model's job list (commands pick jobs by it). */
  index: number;
  input: JobInput;
  sync: boolean;
  waitGiven: boolean;
  status: JobStatus;
  attempt: number;
  /** For IN_PROGRESS: when the attempt ends, and the order its timer was made in (same-time ties). */
  endsAt: number;
  seq: number;
  expiresAt: number;
  gone: boolean;
  /**
   * The rule that says why the model has the job where it is (its last transition: created,
   * cancelled, retried, automatically retried, purged, or left running by a purge). A /status
   * or /runsync that disagrees with the model fails this rule.
   */
  because: string;
}

export interface Counters { completed: number; failed: number; inProgress: number; inQueue: number; retried: number }

const ACTIVE = new Set<JobStatus>(['IN_QUEUE', 'IN_PROGRESS']);

export class JobModel {
  now = 0;
  readonly jobs: ModelJob[] = [];
  readonly counters: Counters = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
  #queue: ModelJob[] = [];
  #seq = 0;

  constructor(readonly workers: number) {}

  /** A job as /status would see it now, or undefined when it was removed or expired. */
  visible(index: number): ModelJob | undefined {
    const job = this.jobs[index];
    return job && !job.gone && !(job.expiresAt <= this.now) ? job : undefined;
  }

  /** Why the model has job `index` gone: purged, or past its retention (by how it was submitted). */
  goneBecause(index: number): string {
    const job = this.jobs[index];
    if (!job || job.gone) return job?.because ?? 'SERVICE.QB.REQUESTS_BECOME_JOBS';
    return !job.sync ? 'LIMIT.RUN.RETENTION_30_MIN' : job.waitGiven ? 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN' : 'LIMIT.RUNSYNC.RETENTION_1_MIN';
  }

  submit(input: JobInput, sync: boolean, waitGiven: boolean): ModelJob {
    const job: ModelJob = { index: this.jobs.length, input, sync, waitGiven, status: 'IN_QUEUE', attempt: 1, endsAt: Infinity, seq: 0, expiresAt: Infinity, gone: false, because: 'SERVICE.QB.REQUESTS_BECOME_JOBS' };
    this.jobs.push(job);
    this.counters.inQueue++;
    this.#queue.push(job);
    this.#settle();
    return job;
  }

  cancel(job: ModelJob): void {
    job.because = job.status === 'IN_QUEUE' ? 'JOB.STATE.CANCEL_QUEUED' : 'JOB.STATE.CANCEL_IN_PROGRESS';
    if (job.status === 'IN_QUEUE') this.#queue = this.#queue.filter((j) => j !== job);
    this.#end(job, 'CANCELLED');
    this.#settle();
  }

  retry(job: ModelJob): void {
    job.because = job.status === 'TIMED_OUT' ? 'JOB.STATE.RETRY_TIMED_OUT' : 'JOB.STATE.RETRY_FAILED';
    job.attempt = 1;
    job.expiresAt = Infinity;
    this.#requeue(job);
    this.#settle();
  }

  /** Removes every waiting job; returns how many. */
  purge(): number {
    const removed = this.#queue.length;
    for (const job of this.jobs) if (job.status === 'IN_PROGRESS') job.because = 'JOB.STATE.PURGE_KEEPS_RUNNING';
    for (const job of this.#queue) { job.gone = true; job.because = 'JOB.STATE.PURGE_REMOVES_QUEUED'; this.#set(job, 'CANCELLED'); }
    this.#queue = [];
    return removed;
  }

  /** Starts what can start and ends the attempts that take no time: all that happens at this instant. */
  #settle(): void {
    this.#dispatch();
    this.advanceTo(this.now);
  }

  /** The time of the next event (an attempt ending), if any. */
  nextEvent(): number | undefined {
    const running = this.jobs.filter((j) => j.status === 'IN_PROGRESS');
    return running.length ? Math.min(...running.map((j) => j.endsAt)) : undefined;
  }

  /** Moves time to `target`, processing every event on the way (all events at one instant, then the next). */
  advanceTo(target: number, stopAfter?: () => boolean): void {
    for (;;) {
      const at = this.nextEvent();
      if (at === undefined || at > target) break;
      this.now = at;
      for (;;) {
        const due = this.jobs.filter((j) => j.status === 'IN_PROGRESS' && j.endsAt === at).sort((a, b) => a.seq - b.seq)[0];
        if (!due) break;
        this.#finish(due);
      }
      if (stopAfter?.()) return;
    }
    this.now = Math.max(this.now, target);
  }

  /** An attempt ends: its worker is free; a failed first attempt goes back to the queue. */
  #finish(job: ModelJob): void {
    if (job.input.sleepMs > EXECUTION_TIMEOUT_MS) this.#end(job, 'TIMED_OUT');
    else if (!job.input.fail) this.#end(job, 'COMPLETED');
    else if (job.attempt <= AUTOMATIC_RETRIES) { job.attempt++; job.because = 'SERVICE.QB.AUTOMATIC_RETRIES'; this.#requeue(job); return; }
    else this.#end(job, 'FAILED');
    this.#dispatch();
  }

  #requeue(job: ModelJob): void {
    this.#set(job, 'IN_QUEUE');
    this.counters.retried++;
    this.#queue.push(job);
    this.#dispatch();
  }

  #end(job: ModelJob, status: JobStatus): void {
    this.#set(job, status);
    job.expiresAt = this.now + (job.sync ? (job.waitGiven ? RETENTION_MS.runsyncWithWait : RETENTION_MS.runsync) : RETENTION_MS.run);
  }

  #dispatch(): void {
    let busy = this.jobs.filter((j) => j.status === 'IN_PROGRESS').length;
    while (busy < this.workers && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      this.#set(job, 'IN_PROGRESS');
      job.endsAt = this.now + Math.min(job.input.sleepMs, EXECUTION_TIMEOUT_MS);
      job.seq = this.#seq++;
      busy++;
    }
  }

  /** Status change with the health counters kept in step. */
  #set(job: ModelJob, next: JobStatus): void {
    if (job.status === next) return;
    if (job.status === 'IN_QUEUE') this.counters.inQueue--;
    else if (job.status === 'IN_PROGRESS') this.counters.inProgress--;
    job.status = next;
    if (next === 'IN_QUEUE') this.counters.inQueue++;
    else if (next === 'IN_PROGRESS') this.counters.inProgress++;
    else if (next === 'COMPLETED') this.counters.completed++;
    else if (next === 'FAILED' || next === 'TIMED_OUT') this.counters.failed++;
  }

}

export const isActive = (status: JobStatus): boolean => ACTIVE.has(status);
