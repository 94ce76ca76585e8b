import type { TimerHandle, VirtualClock } from '../clock.js';
import type { JobRecord } from './job.js';

export type WorkerState = 'initializing' | 'idle' | 'running';

export interface Worker {
  id: string;
  state: WorkerState;
  /** The job it runs (state `running`). */
  job: JobRecord | undefined;
  /** To be replaced after its current job (GPU type or worker counts changed). */
  recycle: boolean;
  /** Cold start, then the idle-shutdown check. */
  timer: TimerHandle | undefined;
  idleSince: number;
}

/** What the pool reads from its endpoint and the world's timings, at the moment it needs them. */
export interface PoolHost {
  readonly clock: VirtualClock;
  nextWorkerId(): string;
  workersMin(): number;
  idleTimeoutMs(): number;
  coldStartMs(): number;
  /** A worker became ready or left: the runtime reschedules. */
  poolChanged(): void;
}

/**
 * An endpoint's workers on the virtual clock: a new worker is `initializing` for the cold
 * start, then `idle`; it is `running` while it holds a job. Workers beyond `workersMin` shut
 * down after `idleTimeout` seconds idle. One idle timer per worker stays armed across jobs and
 * re-checks `idleSince` when it fires, so a million short jobs arm no million timers.
 */
export class WorkerPool {
  readonly #workers = new Map<string, Worker>();

  constructor(private readonly host: PoolHost) {}

  all(): IterableIterator<Worker> {
    return this.#workers.values();
  }

  /** Workers that stay after their job: the ones counted against min and max. */
  get active(): number {
    let n = 0;
    for (const w of this.#workers.values()) if (!w.recycle) n++;
    return n;
  }

  get size(): number {
    return this.#workers.size;
  }

  count(state: WorkerState): number {
    let n = 0;
    for (const w of this.#workers.values()) if (w.state === state) n++;
    return n;
  }

  idleWorker(): Worker | undefined {
    for (const w of this.#workers.values()) if (w.state === 'idle') return w;
    return undefined;
  }

  spawn(): Worker {
    const { clock } = this.host;
    const worker: Worker = { id: this.host.nextWorkerId(), state: 'initializing', job: undefined, recycle: false, timer: undefined, idleSince: 0 };
    this.#workers.set(worker.id, worker);
    worker.timer = clock.at(clock.now() + this.host.coldStartMs(), () => {
      worker.timer = undefined;
      worker.state = 'idle';
      worker.idleSince = clock.now();
      this.host.poolChanged();
    });
    return worker;
  }

  occupy(worker: Worker, job: JobRecord): void {
    worker.state = 'running';
    worker.job = job;
  }

  /** A worker's job ended: it leaves if it was to be recycled, else it waits for the next job. */
  release(worker: Worker): void {
    worker.job = undefined;
    if (worker.recycle) { this.remove(worker); return; }
    worker.state = 'idle';
    worker.idleSince = this.host.clock.now();
  }

  remove(worker: Worker): void {
    worker.timer?.cancel();
    this.#workers.delete(worker.id);
  }

  /** After a settings change: idle and starting workers go now, busy ones after their job. */
  recycleAll(): void {
    for (const w of [...this.#workers.values()]) {
      if (w.state === 'running') w.recycle = true;
      else this.remove(w);
    }
  }

  /** Arms the idle-shutdown check of idle workers while there are more than `workersMin`. */
  armIdleTimers(): void {
    if (this.active <= this.host.workersMin()) return;
    for (const w of this.#workers.values()) {
      if (w.state === 'idle' && !w.timer) this.#armIdle(w, w.idleSince + this.host.idleTimeoutMs());
    }
  }

  #armIdle(w: Worker, at: number): void {
    w.timer = this.host.clock.at(at, () => {
      w.timer = undefined;
      if (w.state !== 'idle' || this.active <= this.host.workersMin()) return;
      const due = w.idleSince + this.host.idleTimeoutMs();
      if (due > this.host.clock.now()) { this.#armIdle(w, due); return; }
      this.remove(w);
      this.host.poolChanged();
    });
  }

  stop(): void {
    for (const w of this.#workers.values()) w.timer?.cancel();
    this.#workers.clear();
  }
}
