import type { JobStatus, StreamItem } from '../../lib/types.gen.js';
import type { VirtualClock } from '../clock.js';
import type { EndpointRecord } from '../state/endpoints.js';
import { templatesSlice } from '../state/templates.js';
import type { World } from '../world.js';
import { Execution } from './execution.js';
import { planJob, type PlanEnd } from './handler.js';
import { isTerminal, type JobRecord } from './job.js';
import { JobQueue } from './queue.js';
import type { Timings } from './settings.js';
import { chunkTextBytes, streamItems } from './stream-items.js';
import { WorkerPool, type PoolHost, type Worker } from './workers.js';
import { OutsideWorkers, type OutsideWorker } from './outside.js';

/** What a runtime needs from the world's job store. */
export interface RuntimeHost {
  readonly world: World;
  timings(): Timings;
  /** The job reached a terminal status (retention starts, waiters wake). */
  settled(job: JobRecord): void;
}

/** Jobs whose lost item (fault `serverless.worker-stream-item-lost`) has been lost already. */
const LOST = new WeakSet<JobRecord>();

/** How an attempt ends: as the built-in handler plans it, or as an outside worker's job-done says (any `output`, or none). */
export type AttemptEnd = Exclude<PlanEnd, { kind: 'complete' }> | { kind: 'complete'; output: unknown };

export interface JobCounters { completed: number; failed: number; retried: number; inQueue: number; inProgress: number }

/**
 * One queue-based endpoint at work: its FIFO queue, its workers and the conformance handler
 * running jobs on them, all on the world's virtual clock. Every status change goes through
 * `#setStatus`, which keeps the health counters exact.
 */
export class EndpointRuntime implements PoolHost {
  readonly counters: JobCounters = { completed: 0, failed: 0, retried: 0, inQueue: 0, inProgress: 0 };
  readonly clock: VirtualClock;
  readonly #queue = new JobQueue();
  readonly #pool: WorkerPool;
  /** Set when the world's queue-based endpoints are served by workers outside the emulator (worker-routes.ts). */
  readonly outside: OutsideWorkers | undefined;
  /** Queued jobs with `policy.lowPriority`: they start no worker. */
  #lowQueued = 0;
  #scheduling = false;
  #again = false;
  #stopped = false;

  constructor(public endpoint: EndpointRecord, private readonly host: RuntimeHost) {
    this.clock = host.world.clock;
    this.#pool = new WorkerPool(this);
    this.outside = host.world.outsideWorkers ? new OutsideWorkers() : undefined;
  }

  // PoolHost: read at the moment of use, so endpoint and timing changes apply at once.
  nextWorkerId(): string { return this.host.world.nextId('wkr'); }
  workersMin(): number { return Math.min(this.endpoint.workersMin, this.endpoint.workersMax); }
  idleTimeoutMs(): number { return this.endpoint.idleTimeout * 1000; }
  coldStartMs(): number { return this.host.timings().coldStartMs; }
  poolChanged(): void { this.schedule(); }

  /** A new job: it starts at once on an idle worker when none is waiting before it, else it queues. */
  admit(job: JobRecord): void {
    this.counters.inQueue++;
    if (job.options.lowPriority) this.#lowQueued++;
    const held = this.#held(job);
    const idle = held === 0 && this.counters.inQueue === 1 && !this.#scheduling && !this.#stopped && !this.outside ? this.#pool.idleWorker() : undefined;
    if (idle) { this.#start(idle, job); this.#pool.armIdleTimers(); return; }
    this.#queue.push(job, held);
    this.schedule();
  }

  /** Legal chaos: when a (re)queued job may start (0: at once); the runtime schedules again then. */
  #held(job: JobRecord): number {
    const delay = this.host.world.chaos?.queueDelayMs(job.id, job.sync) ?? 0;
    if (delay === 0) return 0;
    const at = this.clock.now() + delay;
    this.clock.at(at, () => this.schedule());
    return at;
  }

  /** Stops a queued or running job: CANCELLED, its worker freed. */
  cancel(job: JobRecord): void {
    if (job.status === 'IN_PROGRESS') this.#stopExecution(job);
    job.finishedAt = this.clock.now();
    this.#setStatus(job, 'CANCELLED');
    this.host.settled(job);
    this.schedule();
  }

  /** Removes every waiting job (and, under a fault, the running ones); returns them. */
  purge(alsoRunning: boolean): JobRecord[] {
    const removed = this.#queue.drain();
    for (const job of removed) this.#setStatus(job, 'CANCELLED');
    if (alsoRunning) {
      for (const job of this.#runningJobs()) { this.#stopExecution(job); this.#setStatus(job, 'CANCELLED'); removed.push(job); }
    }
    this.schedule();
    return removed;
  }

  /** /retry and the automatic retries: the same job back in the queue, previous results gone. */
  requeue(job: JobRecord, resetAttempts: boolean): void {
    job.output = job.error = job.stream = job.startedAt = job.finishedAt = job.workerId = undefined;
    job.streamCursor = 0;
    job.queuedAt = this.clock.now();
    if (resetAttempts) job.attempt = 1;
    this.counters.retried++;
    this.#setStatus(job, 'IN_QUEUE');
    this.#queue.push(job, this.#held(job));
    this.schedule();
  }

  /** The endpoint changed; new GPU types or worker counts restart its workers (lifecycle rule 3). */
  update(endpoint: EndpointRecord): void {
    const before = this.endpoint;
    this.endpoint = endpoint;
    const restart = before.gpuIds !== endpoint.gpuIds || before.workersMin !== endpoint.workersMin || before.workersMax !== endpoint.workersMax
      || before.gpuTypeIds.join('\n') !== endpoint.gpuTypeIds.join('\n');
    if (restart) this.#pool.recycleAll();
    this.schedule();
  }

  /** The endpoint is gone: timers off; the store drops its jobs. */
  stop(): void {
    this.#stopped = true;
    for (const job of this.#runningJobs()) job.step?.cancel();
    this.#pool.stop();
    this.outside?.dispose();
  }

  workers(): { idle: number; running: number; initializing: number } {
    if (this.outside) return this.outside.counts();
    return { idle: this.#pool.count('idle'), running: this.#pool.count('running'), initializing: this.#pool.count('initializing') };
  }

  workerIds(): string[] {
    if (this.outside) return this.outside.present().map((w) => w.id);
    return [...this.#pool.all()].filter((w) => !w.recycle).map((w) => w.id);
  }

  /** Gives idle workers queued jobs, starts workers for the waiting ones, keeps the minimum warm. */
  schedule(): void {
    if (this.#stopped) return;
    if (this.#scheduling) { this.#again = true; return; }
    this.#scheduling = true;
    try {
      do {
        this.#again = false;
        this.#scheduleOnce();
      } while (this.#again);
    } finally {
      this.#scheduling = false;
    }
  }

  #scheduleOnce(): void {
    if (this.outside) { this.#offer(this.outside); return; }
    const { workersMax } = this.endpoint;
    for (let worker = this.#pool.idleWorker(); worker; worker = this.#pool.idleWorker()) {
      // Which waiting job a free worker takes is not shown: the oldest, or the newest (variant).
      const job = this.host.world.variant('jobs.dispatch-newest-first') ? this.#queue.pop(this.clock.now()) : this.#queue.shift(this.clock.now());
      if (!job) break;
      this.#start(worker, job);
    }
    let starting = this.#pool.count('initializing');
    while (this.counters.inQueue - this.#lowQueued > starting && this.#pool.size < workersMax) { this.#pool.spawn(); starting++; }
    while (this.#pool.active < this.workersMin() && this.#pool.size < workersMax) this.#pool.spawn();
    this.#pool.armIdleTimers();
  }

  #start(worker: Worker, job: JobRecord): void {
    const { world } = this.host;
    const now = this.clock.now();
    this.#pool.occupy(worker, job);
    this.#begin(job, worker.id);
    const plan = planJob(job.input, chunkTextBytes(world.fault('serverless.stream-chunk-over-1mb')));
    job.stream = [];
    new Execution(job, plan, streamItems(plan.yields), this.clock, this.host.timings().executionMs, now + this.#timeoutMs(job), (j, end) => this.#finish(j, end), (j, item) => this.pushItem(j, item)).step();
  }

  /** The job goes to a worker: IN_PROGRESS from now. */
  #begin(job: JobRecord, workerId: string): void {
    this.#setStatus(job, 'IN_PROGRESS');
    job.startedAt = this.clock.now();
    job.workerId = workerId;
    this.host.world.get(templatesSlice).touch(this.endpoint.templateId);
  }

  /** The job's execution timeout: its own `policy.executionTimeout`, else the world's. */
  #timeoutMs(job: JobRecord): number {
    return job.options.executionTimeoutMs ?? this.host.timings().executionTimeoutMs;
  }

  /** Outside workers: the waiting job takes get the queued jobs, oldest take first. */
  #offer(outside: OutsideWorkers): void {
    for (let taker = outside.nextTaker(); taker; taker = outside.nextTaker()) {
      const jobs: JobRecord[] = [];
      for (let job = this.#queue.shift(this.clock.now()); job; job = jobs.length < taker.max ? this.#queue.shift(this.clock.now()) : undefined) jobs.push(job);
      if (jobs.length === 0) return;
      for (const job of jobs) this.#startOutside(taker.worker, job);
      outside.answer(jobs);
    }
  }

  /** A job take of an outside worker: the queued jobs at once, or the first that comes within the hold. */
  async take(worker: OutsideWorker, max: number): Promise<JobRecord[]> {
    const outside = this.outside!;
    const jobs: JobRecord[] = [];
    if (outside.nextTaker() === undefined) {
      for (let job = this.#queue.shift(this.clock.now()); job && jobs.length < max; job = jobs.length < max ? this.#queue.shift(this.clock.now()) : undefined) {
        jobs.push(job);
      }
    }
    for (const job of jobs) this.#startOutside(worker, job);
    return jobs.length > 0 ? jobs : outside.wait(worker, max);
  }

  #startOutside(worker: OutsideWorker, job: JobRecord): void {
    worker.jobs.add(job);
    this.#begin(job, worker.id);
    job.stream = [];
    // The deadline is the platform's: past it the job ends TIMED_OUT and its worker is told to stop.
    job.step = this.clock.at(this.clock.now() + this.#timeoutMs(job), () => {
      job.step = undefined;
      this.#stopExecution(job);
      this.#finish(job, { kind: 'timeout' });
    });
  }

  /** An outside worker's result for a job it holds; false when it holds no such job (stopped, ended, another's). */
  done(worker: OutsideWorker, job: JobRecord, end: AttemptEnd): boolean {
    if (!worker.jobs.has(job) || (job.status !== 'IN_PROGRESS' && !this.host.world.fault('serverless.worker-stop-not-sent'))) return false;
    job.step?.cancel();
    job.step = undefined;
    this.#finish(job, end);
    return true;
  }

  #finish(job: JobRecord, end: AttemptEnd): void {
    if (end.kind !== 'timeout' && this.host.world.fault('serverless.worker-done-ignored')) { this.#ignoreResult(job); return; }
    this.#release(job);
    job.finishedAt = this.clock.now();
    if (end.kind === 'complete') {
      job.output = end.output;
      this.#setStatus(job, 'COMPLETED');
    } else if (end.kind === 'fail' && job.attempt <= this.host.timings().automaticRetries && !this.host.world.fault('serverless.no-automatic-retry')) {
      job.attempt++;
      this.requeue(job, false);
      return;
    } else {
      // As on the official worker library: a failure posts its error alone, a timeout nothing; the
      // items yielded before were streamed all the same (HANDLER.md).
      if (end.kind === 'fail') job.error = end.error;
      this.#setStatus(job, end.kind === 'fail' ? 'FAILED' : 'TIMED_OUT');
    }
    this.host.settled(job);
    this.schedule();
  }

  /** A stream item reaches the platform: the built-in handler's, or an outside worker's (job-stream). */
  pushItem(job: JobRecord, item: StreamItem): void {
    job.stream ??= [];
    // Fault: the platform loses the second item a worker sends.
    if (job.stream.length === 1 && this.host.world.fault('serverless.worker-stream-item-lost') && !LOST.has(job)) { LOST.add(job); return; }
    job.stream.push(item);
  }

  /** Fault: the worker's result is lost; the job stays IN_PROGRESS, its worker busy, until its execution timeout. */
  #ignoreResult(job: JobRecord): void {
    job.step?.cancel();
    job.step = this.clock.at(Math.max(this.clock.now(), (job.startedAt ?? 0) + this.#timeoutMs(job)), () => {
      job.step = undefined;
      this.#release(job);
      this.#finish(job, { kind: 'timeout' });
    });
  }

  #stopExecution(job: JobRecord): void {
    // Fault: no job-stop reaches the worker: its job runs on, and its result is taken when it comes.
    if (this.host.world.fault('serverless.worker-stop-not-sent')) return;
    job.step?.cancel();
    job.step = undefined;
    if (this.outside) { this.outside.stop(job, true); return; }
    this.#release(job);
  }

  #release(job: JobRecord): void {
    if (this.outside) { this.outside.release(job); return; }
    for (const worker of this.#pool.all()) {
      if (worker.job === job) { this.#pool.release(worker); return; }
    }
  }

  #runningJobs(): JobRecord[] {
    if (this.outside) return this.outside.present().flatMap((w) => [...w.jobs]);
    return [...this.#pool.all()].flatMap((w) => (w.job ? [w.job] : []));
  }

  #setStatus(job: JobRecord, next: JobStatus): void {
    const prev = job.status;
    if (prev === next) return;
    if (job.options.lowPriority) this.#lowQueued += (next === 'IN_QUEUE' ? 1 : 0) - (prev === 'IN_QUEUE' ? 1 : 0);
    if (prev === 'IN_QUEUE') this.counters.inQueue--;
    else if (prev === 'IN_PROGRESS') this.counters.inProgress--;
    if (next === 'IN_QUEUE') this.counters.inQueue++;
    else if (next === 'IN_PROGRESS') this.counters.inProgress++;
    else if (next === 'COMPLETED') this.counters.completed++;
    else if (next === 'FAILED' || next === 'TIMED_OUT') this.counters.failed++;
    job.status = next;
    if (isTerminal(next)) job.step = undefined;
  }
}
