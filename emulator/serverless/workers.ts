import type { TimerHandle, VirtualClock } from '../clock.js';

export type WorkerState = 'initializing' | 'idle' | 'running';

export interface Worker {
  id: string;
  state: WorkerState;
  /** To be replaced after its current job (GPU type or worker counts changed). */
  recycle: boolean;
  /** Cold start, then the idle-shutdown check. */
  timer: TimerHandle | undefined;
  idleSince: number;
}

export interface PoolLimits { workersMin: number; workersMax: number; idleTimeoutSeconds: number; coldStartMs: number }

/**
 * An endpoint's workers on the virtual clock: a new worker is `initializing` for the cold
 * start, then `idle`; it is `running` while it holds a job. Workers beyond `workersMin` shut
 * down after `idleTimeout` seconds idle. One idle timer per worker is kept armed across jobs
 * and re-checks `idleSince` when it fires, so a million short jobs arm no million timers.
 */
export class WorkerPool {
  readonly #workers = new Map<string, Worker>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly nextId: () => string,
    /** A worker became ready or left: the runtime reschedules. */
    private readonly onChange: () => void,
    private readonly limits: () => PoolLimits,
  ) {}

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
    const worker: Worker = { id: this.nextId(), state: 'initializing', recycle: false, timer: undefined, idleSince: 0 };
    this.#workers.set(worker.id, worker);
    worker.timer = this.clock.at(this.clock.now() + this.limits().coldStartMs, () => {
      worker.timer = undefined;
      worker.state = 'idle';
      worker.idleSince = this.clock.now();
      this.onChange();
    });
    return worker;
  }

  occupy(worker: Worker): void {
    worker.state = 'running';
  }

  /** A worker's job ended: it leaves if it was to be recycled, else it waits for the next job. */
  release(worker: Worker): void {
    if (worker.recycle) { this.remove(worker); return; }
    worker.state = 'idle';
    worker.idleSince = this.clock.now();
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
    if (this.active <= this.limits().workersMin) return;
    for (const w of this.#workers.values()) {
      if (w.state === 'idle' && !w.timer) this.#armIdle(w, w.idleSince + this.limits().idleTimeoutSeconds * 1000);
    }
  }

  #armIdle(w: Worker, at: number): void {
    w.timer = this.clock.at(at, () => {
      w.timer = undefined;
      if (w.state !== 'idle') return;
      const due = w.idleSince + this.limits().idleTimeoutSeconds * 1000;
      if (this.active <= this.limits().workersMin) return;
      if (due > this.clock.now()) { this.#armIdle(w, due); return; }
      this.remove(w);
      this.onChange();
    });
  }

  stop(): void {
    for (const w of this.#workers.values()) w.timer?.cancel();
    this.#workers.clear();
  }
}
