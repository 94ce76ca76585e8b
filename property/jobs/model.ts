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
 * of another status does not requeue, expired jobs answer some 4xx, a purged job answers some
 * 4xx or CANCELLED (it never runs). Which waiting job a free worker takes is not shown ("Moves
 * from IN_QUEUE to IN_PROGRESS ...: not shown"): when more jobs wait than workers are free, the
 * model leaves the choice `pending` and learns it from the target's statuses (lockstep.ts).
 * The health counters it holds are the ones whose names say what they count now, `inQueue` and
 * `inProgress`; `completed`, `failed` and `retried` have no stated meaning over time. The
 * model needs the emulator's control surface: it sets the worker timings and moves the clock.
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
  /** For IN_PROGRESS: when the attempt ends. */
  endsAt: number;
  expiresAt: number;
  gone: boolean;
  /**
   * The rule that says why the model has the job where it is (its last transition: created,
   * cancelled, retried, automatically retried, purged, or left running by a purge). A /status
   * or /runsync that disagrees with the model fails this rule.
   */
  because: string;
}

/** The counters that say how many jobs are in a state now: waiting and running. */
export interface ActiveCounts { inQueue: number; inProgress: number }

/** More jobs wait than workers are free: which `slots` of `waiting` start is the target's choice. */
export interface PendingDispatch { waiting: readonly ModelJob[]; slots: number }

const ACTIVE = new Set<JobStatus>(['IN_QUEUE', 'IN_PROGRESS']);
const PURGED = 'JOB.STATE.PURGE_REMOVES_QUEUED';

export class JobModel {
  now = 0;
  readonly jobs: ModelJob[] = [];
  /** Set when a dispatch waits for the target's choice; nothing else moves until {@link resolve}. */
  pending: PendingDispatch | undefined;
  #queue: ModelJob[] = [];

  constructor(readonly workers: number) {}

  /** A job as /status would see it now, or undefined when it was removed or expired. */
  visible(index: number): ModelJob | undefined {
    const job = this.jobs[index];
    return job && !job.gone && !(job.expiresAt <= this.now) ? job : undefined;
  }

  /** Whether job `index` was removed by /purge-queue while it waited. */
  purged(index: number): boolean {
    const job = this.jobs[index];
    return job !== undefined && job.gone && job.because === PURGED;
  }

  /** Why the model has job `index` gone: purged, or past its retention (by how it was submitted). */
  goneBecause(index: number): string {
    const job = this.jobs[index];
    if (!job || job.gone) return job?.because ?? 'SERVICE.QB.REQUESTS_BECOME_JOBS';
    return !job.sync ? 'LIMIT.RUN.RETENTION_30_MIN' : job.waitGiven ? 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN' : 'LIMIT.RUNSYNC.RETENTION_1_MIN';
  }

  counts(): ActiveCounts {
    return { inQueue: this.jobs.filter((j) => j.status === 'IN_QUEUE').length, inProgress: this.#running().length };
  }

  submit(input: JobInput, sync: boolean, waitGiven: boolean): ModelJob {
    const job: ModelJob = { index: this.jobs.length, input, sync, waitGiven, status: 'IN_QUEUE', attempt: 1, endsAt: Infinity, expiresAt: Infinity, gone: false, because: 'SERVICE.QB.REQUESTS_BECOME_JOBS' };
    this.jobs.push(job);
    this.#queue.push(job);
    this.#dispatch();
    return job;
  }

  cancel(job: ModelJob): void {
    job.because = job.status === 'IN_QUEUE' ? 'JOB.STATE.CANCEL_QUEUED' : 'JOB.STATE.CANCEL_IN_PROGRESS';
    if (job.status === 'IN_QUEUE') this.#queue = this.#queue.filter((j) => j !== job);
    this.#end(job, 'CANCELLED');
    this.#dispatch();
  }

  retry(job: ModelJob): void {
    job.because = job.status === 'TIMED_OUT' ? 'JOB.STATE.RETRY_TIMED_OUT' : 'JOB.STATE.RETRY_FAILED';
    job.attempt = 1;
    job.expiresAt = Infinity;
    this.#requeue(job);
    this.#dispatch();
  }

  /** Removes every waiting job; returns how many. */
  purge(): number {
    const removed = this.#queue.length;
    for (const job of this.#running()) job.because = 'JOB.STATE.PURGE_KEEPS_RUNNING';
    for (const job of this.#queue) { job.gone = true; job.because = PURGED; job.status = 'CANCELLED'; }
    this.#queue = [];
    return removed;
  }

  /** The time of the next event (an attempt ending), if any. */
  nextEvent(): number | undefined {
    const running = this.#running();
    return running.length ? Math.min(...running.map((j) => j.endsAt)) : undefined;
  }

  /**
   * Moves time to `at` (no later than the next event) and ends every attempt due then; the
   * workers they free then take waiting jobs, which may leave a dispatch pending.
   */
  eventsAt(at: number): void {
    this.now = at;
    for (const job of this.#running().filter((j) => j.endsAt === at)) this.#finish(job);
    this.#dispatch();
  }

  /** Time passes with nothing due (`at` no later than the next event). */
  idleTo(at: number): void {
    this.now = Math.max(this.now, at);
  }

  /** The target started `started` of the pending dispatch's waiting jobs: so does the model. */
  resolve(started: readonly ModelJob[]): void {
    this.pending = undefined;
    for (const job of started) this.#start(job);
    this.#queue = this.#queue.filter((j) => !started.includes(j));
  }

  #running(): ModelJob[] {
    return this.jobs.filter((j) => j.status === 'IN_PROGRESS');
  }

  /** An attempt ends: its worker is free; a failed first attempt goes back to the queue. */
  #finish(job: ModelJob): void {
    if (job.input.sleepMs > EXECUTION_TIMEOUT_MS) this.#end(job, 'TIMED_OUT');
    else if (!job.input.fail) this.#end(job, 'COMPLETED');
    else if (job.attempt <= AUTOMATIC_RETRIES) { job.attempt++; job.because = 'SERVICE.QB.AUTOMATIC_RETRIES'; this.#requeue(job); }
    else this.#end(job, 'FAILED');
  }

  #requeue(job: ModelJob): void {
    job.status = 'IN_QUEUE';
    this.#queue.push(job);
  }

  #end(job: ModelJob, status: JobStatus): void {
    job.status = status;
    job.expiresAt = this.now + (job.sync ? (job.waitGiven ? RETENTION_MS.runsyncWithWait : RETENTION_MS.runsync) : RETENTION_MS.run);
  }

  #start(job: ModelJob): void {
    job.status = 'IN_PROGRESS';
    job.endsAt = this.now + Math.min(job.input.sleepMs, EXECUTION_TIMEOUT_MS);
  }

  /** Free workers take waiting jobs: all of them when there are enough, else the target chooses. */
  #dispatch(): void {
    const slots = this.workers - this.#running().length;
    if (slots <= 0 || this.#queue.length === 0) return;
    if (this.#queue.length > slots) { this.pending = { waiting: [...this.#queue], slots }; return; }
    for (const job of this.#queue) this.#start(job);
    this.#queue = [];
  }
}

export const isActive = (status: JobStatus): boolean => ACTIVE.has(status);
