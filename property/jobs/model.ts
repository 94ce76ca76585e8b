import type { JobStatus } from '../../lib/types.gen.js';
import { RETENTION_MS } from '../../lib/iso/spec-constants.js';

/**
 * A model of one queue-based endpoint's job state machine, in virtual milliseconds, under the
 * timings the property sets: a job's attempt runs its `sleepMs`, an attempt running past
 * `EXECUTION_TIMEOUT_MS` ends TIMED_OUT, and a failed attempt is retried once by the platform
 * before the job is FAILED.
 *
 * What it encodes: the spec's transitions (run → IN_QUEUE, cancel → CANCELLED, retry of
 * FAILED/TIMED_OUT → IN_QUEUE with the same id, purge removes waiting jobs and keeps running
 * ones), the retention limits (1 min, 5 min with wait, 30 min for /run, counted from the end of
 * a job that completed, failed or timed out), the wait range, and where the spec says "not
 * shown", only what any answer shows: successes are some 2xx, a retry of another status does
 * not requeue, expired jobs answer some 4xx, a purged job answers some 4xx or CANCELLED (it never
 * runs), a cancelled job stays CANCELLED until it is no longer kept (for how long: not shown).
 *
 * When a waiting job starts is not shown ("Moves from IN_QUEUE to IN_PROGRESS ...: not shown"):
 * neither which job a free worker takes nor how long a job waits first (a queue, a cold start).
 * So a job's life is a chain of phases (waiting, running, waiting again for the automatic retry,
 * running again, ended, gone), each beginning at a time the model knows only as a window
 * [lo, hi]. A start's window is open until the target shows the job started; what follows a
 * start is fixed by the handler (an attempt lasts its `sleepMs`, a result its retention), so it
 * moves with it. Every /status answer must be one a possible phase shows, and narrows the
 * windows (lockstep.ts reads the jobs that may be starting as the clock moves, so the windows
 * stay narrow). The health counters it holds are the ones whose names say what they count now,
 * `inQueue` and `inProgress`; `completed`, `failed` and `retried` have no stated meaning over
 * time. The model needs the emulator's control surface: it sets the worker timings and moves
 * the clock.
 */
export const EXECUTION_TIMEOUT_MS = 30_000;
export const AUTOMATIC_RETRIES = 1;

export interface JobInput { sleepMs: number; fail: boolean }

/** What /status may show of a job: a status, or `gone` (some 4xx: removed or no longer kept). */
export type Shown = JobStatus | 'gone';

/** A stretch of a job's life in which /status shows one of `shows`; it begins at a time in [lo, hi]. */
export interface Phase {
  readonly shows: readonly Shown[];
  /** The rule that says the job is in this phase: an answer that no possible phase shows fails it. */
  readonly because: string;
  lo: number;
  hi: number;
  /** The phase lasts exactly this long (an attempt, a retention); otherwise until the target ends it, or for ever when it is the last. */
  readonly lastsMs?: number;
  /** A wait in the queue: its end (the start) is the target's to choose, learnt from what it shows. */
  readonly waits?: boolean;
}

export interface ModelJob {
  /** Position in the model's job list (commands pick jobs by it). */
  index: number;
  input: JobInput;
  sync: boolean;
  waitGiven: boolean;
  phases: Phase[];
  /** The last answer read of the job, and when. */
  seen?: { at: number; shown: Shown };
}

/** Which of the counted states a job is in now: waiting, running, or neither. */
export type Activity = 'IN_QUEUE' | 'IN_PROGRESS' | 'other';

/** The counters that say how many jobs are in a state now: waiting and running. */
export interface ActiveCounts { inQueue: number; inProgress: number }

/** An answer no possible phase shows, or windows that cannot all hold: the rule it breaks and why. */
export interface Divergence { rule: string; message: string }

const PURGED = 'JOB.STATE.PURGE_REMOVES_QUEUED';
const TERMINAL = new Set<Shown>(['COMPLETED', 'FAILED', 'TIMED_OUT']);

export const activityOf = (shown: Shown): Activity => (shown === 'IN_QUEUE' || shown === 'IN_PROGRESS' ? shown : 'other');

const retentionOf = (job: Pick<ModelJob, 'sync' | 'waitGiven'>): { ms: number; rule: string } =>
  !job.sync ? { ms: RETENTION_MS.run, rule: 'LIMIT.RUN.RETENTION_30_MIN' }
    : job.waitGiven ? { ms: RETENTION_MS.runsyncWithWait, rule: 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN' }
      : { ms: RETENTION_MS.runsync, rule: 'LIMIT.RUNSYNC.RETENTION_1_MIN' };

/** The phases of a job (re)queued at `at`: its attempts, its end, and its retention. */
function queuedPhases(job: Pick<ModelJob, 'input' | 'sync' | 'waitGiven'>, at: number, because: string): Phase[] {
  const { sleepMs, fail } = job.input;
  const attemptMs = Math.min(sleepMs, EXECUTION_TIMEOUT_MS);
  const phases: Phase[] = [];
  const attempt = (rule: string): void => {
    phases.push({ shows: ['IN_QUEUE'], because: rule, lo: at, hi: phases.length ? Infinity : at, waits: true });
    phases.push({ shows: ['IN_PROGRESS'], because: rule, lo: at, hi: Infinity, lastsMs: attemptMs });
  };
  attempt(because);
  const end: JobStatus = sleepMs > EXECUTION_TIMEOUT_MS ? 'TIMED_OUT' : fail ? 'FAILED' : 'COMPLETED';
  if (end === 'FAILED') for (let i = 0; i < AUTOMATIC_RETRIES; i++) attempt('SERVICE.QB.AUTOMATIC_RETRIES');
  const retention = retentionOf(job);
  phases.push({ shows: [end], because: end === 'FAILED' && AUTOMATIC_RETRIES > 0 ? 'SERVICE.QB.AUTOMATIC_RETRIES' : because, lo: at, hi: Infinity, lastsMs: retention.ms });
  phases.push({ shows: ['gone'], because: retention.rule, lo: at, hi: Infinity });
  tighten(phases);
  return phases;
}

/**
 * Makes every window agree with its neighbours: a phase begins no earlier than the one before
 * it, and exactly `lastsMs` after it when that one has a fixed length. False when they cannot.
 */
function tighten(phases: Phase[]): boolean {
  for (let pass = 0; pass < 3; pass++) {
    for (let i = 0; i + 1 < phases.length; i++) {
      const cur = phases[i]!;
      const next = phases[i + 1]!;
      const len = cur.lastsMs ?? 0;
      next.lo = Math.max(next.lo, cur.lo + len);
      if (cur.lastsMs !== undefined) next.hi = Math.min(next.hi, cur.hi + len);
    }
    for (let i = phases.length - 2; i >= 0; i--) {
      const cur = phases[i]!;
      const next = phases[i + 1]!;
      const len = cur.lastsMs ?? 0;
      cur.hi = Math.min(cur.hi, next.hi - len);
      if (cur.lastsMs !== undefined) cur.lo = Math.max(cur.lo, next.lo - len);
    }
  }
  return phases.every((p) => p.lo <= p.hi);
}

/** The phases the job may be in at `t`: begun no later than `t`, the next one not surely begun. */
export function possibleAt(job: ModelJob, t: number): number[] {
  const out: number[] = [];
  job.phases.forEach((p, i) => {
    const next = job.phases[i + 1];
    if (p.lo <= t && (next === undefined || next.hi > t)) out.push(i);
  });
  return out;
}

/** What the job may show at `t`; exactly what was read when it was read at `t`. */
export function showsAt(job: ModelJob, t: number): Set<Shown> {
  if (job.seen?.at === t) return new Set([job.seen.shown]);
  return new Set(possibleAt(job, t).flatMap((i) => job.phases[i]!.shows));
}

/** Whether the job is waiting, running or neither at `t`, when the model knows. */
export function activityAt(job: ModelJob, t: number): Activity | undefined {
  const kinds = new Set([...showsAt(job, t)].map(activityOf));
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

const describeWindow = (p: Phase): string => (p.lo === p.hi ? `at ${p.lo} ms` : p.hi === Infinity ? `at ${p.lo} ms or later` : `at ${p.lo}..${p.hi} ms`);
const describePhases = (job: ModelJob, idx: readonly number[]): string =>
  idx.map((i) => `${job.phases[i]!.shows.join('|')} (begun ${describeWindow(job.phases[i]!)})`).join(' or ');

/** The rule an answer no possible phase shows breaks: a result gone before its retention, else the rule of the latest possible phase. */
function blame(job: ModelJob, possible: readonly number[], shown: Shown): string {
  const phases = possible.map((i) => job.phases[i]!);
  if (shown === 'gone' && phases.some((p) => p.shows.some((s) => TERMINAL.has(s)))) {
    const gone = job.phases.at(-1)!;
    if (gone.shows.includes('gone') && gone.because !== PURGED) return gone.because;
  }
  return phases.at(-1)?.because ?? job.phases.at(-1)!.because;
}

/**
 * Takes what the target showed of the job at `t`: a divergence when no phase possible then
 * shows it, otherwise the windows narrow (the first phase that shows it began by `t`, the phase
 * after the last one that shows it begins no earlier than `t`). Until the next request that may
 * change a job, the job shows that at `t`.
 */
export function observe(job: ModelJob, t: number, shown: Shown): Divergence | undefined {
  const possible = possibleAt(job, t);
  const matching = possible.filter((i) => job.phases[i]!.shows.includes(shown));
  const diverge = (why: string): Divergence => ({
    rule: blame(job, possible, shown),
    message: `job #${job.index} shows ${shown} at ${t} ms; the model has it ${describePhases(job, possible)}${why}`,
  });
  if (matching.length === 0) return diverge('');
  const before = job.phases.map((p) => ({ lo: p.lo, hi: p.hi }));
  job.phases[matching[0]!]!.hi = Math.min(job.phases[matching[0]!]!.hi, t);
  // Not begun when read at `t`, yet it may still begin at `t`: a request after the read, at the
  // same instant, may free a worker (a cancel) or queue a job that starts at once.
  const after = job.phases[matching.at(-1)! + 1];
  if (after) after.lo = Math.max(after.lo, t);
  if (!tighten(job.phases)) {
    job.phases.forEach((p, i) => { p.lo = before[i]!.lo; p.hi = before[i]!.hi; });
    return diverge(', and cannot be so with what it showed before (each attempt lasts its handler time)');
  }
  job.seen = { at: t, shown };
  return undefined;
}

export class JobModel {
  now = 0;
  readonly jobs: ModelJob[] = [];

  /** `workers`: the endpoint's `workersMax`; how many jobs run at once is not shown, so the model holds the target to nothing about it. */
  constructor(readonly workers: number) {}

  /** Whether job `index` was removed by /purge-queue while it waited. */
  purged(index: number): boolean {
    return this.jobs[index]?.phases.length === 1 && this.jobs[index].phases[0]!.because === PURGED;
  }

  /** The rule that says job `index` is gone now: purged, or past its retention. */
  goneBecause(index: number): string {
    return this.jobs[index]!.phases.at(-1)!.because;
  }

  /** Waiting and running jobs now, counting only jobs whose activity the model knows (see {@link unsettled}). */
  counts(jobs: readonly ModelJob[] = this.jobs): ActiveCounts {
    const acts = jobs.map((j) => activityAt(j, this.now));
    return { inQueue: acts.filter((a) => a === 'IN_QUEUE').length, inProgress: acts.filter((a) => a === 'IN_PROGRESS').length };
  }

  /** Jobs whose activity now the model cannot tell without reading them. */
  unsettled(jobs: readonly ModelJob[] = this.jobs): ModelJob[] {
    return jobs.filter((j) => activityAt(j, this.now) === undefined);
  }

  submit(input: JobInput, sync: boolean, waitGiven: boolean): ModelJob {
    this.#acted();
    const job: ModelJob = { index: this.jobs.length, input, sync, waitGiven, phases: [] };
    job.phases = queuedPhases(job, this.now, 'SERVICE.QB.REQUESTS_BECOME_JOBS');
    this.jobs.push(job);
    return job;
  }

  /** The job, known waiting or running now, is cancelled: CANCELLED until no longer kept (not shown when). */
  cancel(job: ModelJob, was: 'IN_QUEUE' | 'IN_PROGRESS'): void {
    this.#acted();
    const because = was === 'IN_QUEUE' ? 'JOB.STATE.CANCEL_QUEUED' : 'JOB.STATE.CANCEL_IN_PROGRESS';
    job.phases = [{ shows: ['CANCELLED'], because, lo: this.now, hi: this.now }, { shows: ['gone'], because, lo: this.now, hi: Infinity }];
    job.seen = { at: this.now, shown: 'CANCELLED' };
  }

  /** The job, known FAILED or TIMED_OUT now, is back in the queue as a new one, its automatic retries anew. */
  retry(job: ModelJob, was: 'FAILED' | 'TIMED_OUT'): void {
    this.#acted();
    // Answered IN_QUEUE, the job may already have started at this same instant.
    job.phases = queuedPhases(job, this.now, was === 'TIMED_OUT' ? 'JOB.STATE.RETRY_TIMED_OUT' : 'JOB.STATE.RETRY_FAILED');
    job.seen = undefined;
  }

  /**
   * /purge-queue now, every job's activity known: the waiting ones are removed (never to run;
   * some 4xx or CANCELLED), the running ones go on. Returns how many were removed.
   */
  purge(): number {
    let removed = 0;
    const activities = this.jobs.map((job) => activityAt(job, this.now));
    this.#acted();
    this.jobs.forEach((job, i) => {
      const activity = activities[i];
      if (activity === 'IN_QUEUE') {
        removed++;
        job.phases = [{ shows: ['gone', 'CANCELLED'], because: PURGED, lo: this.now, hi: this.now }];
      } else if (activity === 'IN_PROGRESS') {
        // What follows is the running job continuing: a divergence from here on breaks that rule.
        job.phases = job.phases.map((p) => (p.because === 'SERVICE.QB.AUTOMATIC_RETRIES' || p.shows.includes('gone') ? p : { ...p, because: 'JOB.STATE.PURGE_KEEPS_RUNNING' }));
      }
    });
    return removed;
  }

  /** A request that may change jobs was sent: what each showed earlier at this instant may no longer hold. */
  #acted(): void {
    for (const job of this.jobs) job.seen = undefined;
  }

  /**
   * The next time something may happen to one of `jobs`: a window of a phase beginning opens or
   * closes after now. Undefined when nothing more is due (every job ended for good, or waits
   * on the target with nothing that bounds it).
   */
  nextEvent(jobs: readonly ModelJob[] = this.jobs): number | undefined {
    let next = Infinity;
    for (const job of jobs) {
      for (const p of job.phases) {
        if (p.lo > this.now) next = Math.min(next, p.lo);
        else if (p.hi > this.now && p.hi !== Infinity) next = Math.min(next, p.hi);
      }
    }
    return next === Infinity ? undefined : next;
  }

  /**
   * Whether one of `jobs` may be waiting now for the target to start it: the model learns the
   * start only from what the target shows, so the clock moves in small steps meanwhile.
   */
  mayStartNow(jobs: readonly ModelJob[] = this.jobs): boolean {
    return jobs.some((job) => possibleAt(job, this.now).some((i) => job.phases[i]!.waits === true));
  }

  /** The earliest time after now at which one of `jobs` may be waiting in the queue. */
  nextWait(jobs: readonly ModelJob[] = this.jobs): number | undefined {
    const at = jobs.flatMap((job) => job.phases.filter((p) => p.waits === true && p.lo > this.now).map((p) => p.lo));
    return at.length ? Math.min(...at) : undefined;
  }

  /** The earliest time the job may end (its first end phase), for a /runsync waiting on it. */
  earliestEnd(job: ModelJob): number {
    const end = job.phases.find((p) => p.shows.some((s) => TERMINAL.has(s) || s === 'CANCELLED'));
    return end?.lo ?? Infinity;
  }
}

export const isActive = (shown: Shown): boolean => activityOf(shown) !== 'other';
export const isEnded = (shown: Shown): boolean => TERMINAL.has(shown) || shown === 'CANCELLED';
