/**
 * Virtual time for one emulator world.
 *
 * `manual` mode moves only when told (`advance`), which makes every time-based rule
 * (provisioning, retention, rate-limit windows, deletion delays) testable in milliseconds
 * and deterministic. `auto` mode follows real time multiplied by `scale`, for standalone use
 * and for load runs that need a 5-minute wait to pass in a few real seconds.
 */
export type ClockMode = 'manual' | 'auto';

export interface ClockSettings {
  mode: ClockMode;
  /** Virtual milliseconds per real millisecond in `auto` mode. */
  scale: number;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Handle returned by {@link VirtualClock.at}; `cancel()` is idempotent. */
export interface TimerHandle {
  cancel(): void;
}

export class VirtualClock {
  #mode: ClockMode;
  #scale: number;
  #virtualBase: number;
  #realBase: number;
  #timers: Timer[] = [];
  #seq = 0;
  #realTimeout: NodeJS.Timeout | undefined;
  #firing = false;

  constructor(startAt: number, settings: ClockSettings = { mode: 'manual', scale: 1 }) {
    this.#virtualBase = startAt;
    this.#realBase = performance.now();
    this.#mode = settings.mode;
    this.#scale = settings.scale;
  }

  /** Current virtual time in epoch milliseconds. */
  now(): number {
    if (this.#mode === 'manual') return this.#virtualBase;
    return this.#virtualBase + Math.floor((performance.now() - this.#realBase) * this.#scale);
  }

  settings(): ClockSettings {
    return { mode: this.#mode, scale: this.#scale };
  }

  configure(settings: Partial<ClockSettings>): void {
    this.#virtualBase = this.now();
    this.#realBase = performance.now();
    if (settings.mode !== undefined) this.#mode = settings.mode;
    if (settings.scale !== undefined) this.#scale = settings.scale;
    this.#arm();
  }

  /** Moves virtual time forward, firing every timer that falls due, in order. */
  advance(ms: number): number {
    const target = this.now() + Math.max(0, ms);
    for (;;) {
      const next = this.#peek();
      if (next === undefined || next.at > target) break;
      this.#virtualBase = Math.max(this.#virtualBase, next.at);
      this.#realBase = performance.now();
      this.#fireDue();
    }
    this.#virtualBase = target;
    this.#realBase = performance.now();
    this.#arm();
    return target;
  }

  /** Runs `fn` when virtual time reaches `at` (at once, synchronously deferred, if already past). */
  at(at: number, fn: () => void): TimerHandle {
    const timer: Timer = { at, seq: this.#seq++, fn, cancelled: false };
    this.#push(timer);
    if (at <= this.now()) queueMicrotask(() => this.#fireDue());
    else this.#arm();
    return { cancel: () => { timer.cancelled = true; } };
  }

  /** Resolves after `ms` of virtual time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => { this.at(this.now() + ms, resolve); });
  }

  /** Pending (not cancelled) timers; used by the control surface and tests. */
  pending(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }

  dispose(): void {
    if (this.#realTimeout) clearTimeout(this.#realTimeout);
    this.#timers = [];
  }

  #fireDue(): void {
    if (this.#firing) return;
    this.#firing = true;
    try {
      for (;;) {
        const next = this.#peek();
        if (next === undefined || next.at > this.now()) break;
        this.#pop();
        if (!next.cancelled) next.fn();
      }
    } finally {
      this.#firing = false;
    }
    this.#arm();
  }

  #arm(): void {
    if (this.#realTimeout) { clearTimeout(this.#realTimeout); this.#realTimeout = undefined; }
    if (this.#mode !== 'auto') return;
    const next = this.#peek();
    if (next === undefined) return;
    const delay = Math.max(0, Math.ceil((next.at - this.now()) / this.#scale));
    this.#realTimeout = setTimeout(() => this.#fireDue(), Math.min(delay, 2 ** 31 - 1));
    this.#realTimeout.unref();
  }

  // A binary min-heap ordered by (at, seq): thousands of job timers stay cheap.
  #less(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #peek(): Timer | undefined {
    while (this.#timers.length > 0 && this.#timers[0]!.cancelled) this.#pop();
    return this.#timers[0];
  }

  #push(t: Timer): void {
    const h = this.#timers;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  #pop(): Timer | undefined {
    const h = this.#timers;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.#less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.#less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}
