import type { StreamItem } from '../../lib/types.gen.js';
import type { VirtualClock } from '../clock.js';
import type { PlanEnd, Plan } from './handler.js';
import type { JobRecord } from './job.js';

/**
 * One attempt of a job on a worker, on the virtual clock: after `executionMs + sleepMs` the
 * handler yields its values, which the platform streams as `items` (one per `chunkMs`), then ends; past the execution timeout it ends
 * TIMED_OUT. Everything due at the same instant happens in one step, so a zero-time job ends
 * within the call that starts it. A class with a method, not a closure per job: the hot path
 * of a million jobs allocates as little as it can.
 */
export class Execution {
  #next = 0;
  readonly #items: readonly StreamItem[];
  readonly #begin: number;
  readonly #endAt: number;

  constructor(
    private readonly job: JobRecord,
    private readonly plan: Plan,
    items: readonly StreamItem[],
    private readonly clock: VirtualClock,
    executionMs: number,
    private readonly deadline: number,
    private readonly onEnd: (job: JobRecord, end: PlanEnd) => void,
    private readonly onItem: (job: JobRecord, item: StreamItem) => void,
  ) {
    this.#items = items;
    this.#begin = clock.now() + executionMs + plan.sleepMs;
    this.#endAt = plan.end.kind === 'timeout' ? Infinity : this.#begin + this.#items.length * plan.chunkMs;
  }

  step(): void {
    const { job, plan, clock, deadline } = this;
    job.step = undefined;
    const t = clock.now();
    const items = this.#items;
    while (this.#next < items.length && this.#begin + (this.#next + 1) * plan.chunkMs <= t && t <= deadline) this.onItem(job, items[this.#next++]!);
    if (this.#next >= items.length && this.#endAt <= t && this.#endAt <= deadline) { this.onEnd(job, plan.end); return; }
    if (t >= deadline) { this.onEnd(job, { kind: 'timeout' }); return; }
    const due = Math.min(this.#next < items.length ? this.#begin + (this.#next + 1) * plan.chunkMs : this.#endAt, deadline);
    job.step = clock.at(due, () => this.step());
  }
}
