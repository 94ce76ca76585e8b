import type { JobRecord } from './job.js';

/**
 * The workers of an endpoint served from outside the emulator: processes on the official worker
 * library that take jobs over HTTP (worker-routes.ts). They are known by what they send: a job
 * take, a stop poll or a heartbeat makes a worker known for {@link LIVENESS_MS}; it is `running`
 * while it holds a job, else `idle`. Long polls (job take, job stop) are held in real time: the
 * worker's own timeouts are real (the library gives up on a poll after 90 s).
 */
export interface OutsideWorker {
  readonly id: string;
  /** Real time (Date.now) of its last request. */
  seenAt: number;
  readonly jobs: Set<JobRecord>;
  /** Ids of its jobs the platform stopped (cancel, timeout), not yet handed to its stop poll. */
  readonly stops: Set<string>;
}

/** How long a worker counts as present after its last request: three heartbeats at the library's default (10 s). */
export const LIVENESS_MS = 30_000;
/** How long a job take or a stop poll is held open when there is nothing to answer. */
export const HOLD_MS = 15_000;

interface Waiter { worker: OutsideWorker; max: number; answer: (jobs: JobRecord[]) => void; timer: NodeJS.Timeout }

export class OutsideWorkers {
  readonly #workers = new Map<string, OutsideWorker>();
  /** Job takes waiting for a job, oldest first. */
  readonly #takers: Waiter[] = [];
  readonly #stopPolls = new Map<string, { answer: (ids: string[]) => void; timer: NodeJS.Timeout }>();

  /** The worker named by a request, made known (or kept known) by it. */
  seen(id: string): OutsideWorker {
    let worker = this.#workers.get(id);
    if (!worker) { worker = { id, seenAt: 0, jobs: new Set(), stops: new Set() }; this.#workers.set(id, worker); }
    worker.seenAt = Date.now();
    return worker;
  }

  /** Holds a job take until {@link offer} answers it or {@link HOLD_MS} pass (then: no job). */
  wait(worker: OutsideWorker, max: number): Promise<JobRecord[]> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        worker, max, answer: resolve,
        timer: setTimeout(() => { this.#drop(waiter); resolve([]); }, HOLD_MS),
      };
      this.#takers.push(waiter);
    });
  }

  /** The oldest waiting take, if any (the caller gives it jobs with {@link answer}). */
  nextTaker(): { worker: OutsideWorker; max: number } | undefined {
    return this.#takers[0];
  }

  answer(jobs: JobRecord[]): void {
    const waiter = this.#takers.shift();
    if (!waiter) return;
    clearTimeout(waiter.timer);
    waiter.answer(jobs);
  }

  /** A stop poll: the ids to stop now, or held until there are some or {@link HOLD_MS} pass. */
  stopSignals(worker: OutsideWorker): Promise<string[]> {
    if (worker.stops.size > 0) return Promise.resolve(this.#takeStops(worker));
    this.#stopPolls.get(worker.id)?.answer([]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.#stopPolls.delete(worker.id); resolve([]); }, HOLD_MS);
      this.#stopPolls.set(worker.id, { answer: (ids) => { clearTimeout(timer); resolve(ids); }, timer });
    });
  }

  /** The platform stopped `job` (cancel, timeout): its worker no longer holds it and is told to stop it. */
  stop(job: JobRecord, signal: boolean): void {
    const worker = this.holder(job);
    if (!worker) return;
    worker.jobs.delete(job);
    if (!signal) return;
    worker.stops.add(job.id);
    const poll = this.#stopPolls.get(worker.id);
    if (poll) { this.#stopPolls.delete(worker.id); poll.answer(this.#takeStops(worker)); }
  }

  /** The job's result came: its worker is free of it. */
  release(job: JobRecord): void {
    this.holder(job)?.jobs.delete(job);
  }

  holder(job: JobRecord): OutsideWorker | undefined {
    return job.workerId === undefined ? undefined : this.#workers.get(job.workerId);
  }

  /** Present workers: those that sent anything within {@link LIVENESS_MS}, or hold a job or a poll. */
  present(): OutsideWorker[] {
    const since = Date.now() - LIVENESS_MS;
    return [...this.#workers.values()].filter((w) => w.seenAt >= since || w.jobs.size > 0 || this.#stopPolls.has(w.id));
  }

  counts(): { idle: number; running: number; initializing: number } {
    const present = this.present();
    const running = present.filter((w) => w.jobs.size > 0).length;
    return { idle: present.length - running, running, initializing: 0 };
  }

  /** Every held poll answers at once (no job, nothing to stop): the endpoint or its world is gone. */
  dispose(): void {
    for (const waiter of this.#takers.splice(0)) { clearTimeout(waiter.timer); waiter.answer([]); }
    for (const poll of this.#stopPolls.values()) { clearTimeout(poll.timer); poll.answer([]); }
    this.#stopPolls.clear();
  }

  #takeStops(worker: OutsideWorker): string[] {
    const ids = [...worker.stops];
    worker.stops.clear();
    return ids;
  }

  #drop(waiter: Waiter): void {
    const i = this.#takers.indexOf(waiter);
    if (i >= 0) this.#takers.splice(i, 1);
  }
}
