import type { JobRecord } from './job.js';

interface Entry { job: JobRecord; token: number; /** Virtual time before which it may not start (legal chaos: queueing, cold starts); 0: at once. */ notBefore: number }

/**
 * An endpoint's FIFO of waiting jobs. Cancelled entries stay until they reach the head and
 * are skipped there (an entry is live while its job is IN_QUEUE with the token it was queued
 * with), so cancelling is O(1) and a million queued jobs cost one array.
 */
export class JobQueue {
  #entries: Entry[] = [];
  #head = 0;
  /** Entries pushed with a `notBefore` still in the queue: while there are any, {@link shift} looks past the held ones. */
  #held = 0;

  push(job: JobRecord, notBefore = 0): void {
    job.queueToken++;
    this.#entries.push({ job, token: job.queueToken, notBefore });
    if (notBefore > 0) this.#held++;
  }

  /** The oldest live job that may start at `now`, removed from the queue. */
  shift(now: number): JobRecord | undefined {
    if (this.#held > 0) return this.#shiftReady(now);
    while (this.#head < this.#entries.length) {
      const entry = this.#entries[this.#head]!;
      this.#entries[this.#head++] = undefined as unknown as Entry;
      if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
        this.#entries = this.#entries.slice(this.#head);
        this.#head = 0;
      }
      if (isLive(entry)) return entry.job;
    }
    return undefined;
  }

  /** The newest live job that may start at `now`, removed from the queue (the variant `jobs.dispatch-newest-first`). */
  pop(now: number): JobRecord | undefined {
    for (let i = this.#entries.length - 1; i >= this.#head; i--) {
      const entry = this.#entries[i]!;
      if (!isLive(entry) || entry.notBefore > now) continue;
      this.#entries.splice(i, 1);
      if (entry.notBefore > 0) this.#held--;
      return entry.job;
    }
    return undefined;
  }

  /** Removes and returns every live job, oldest first. */
  drain(): JobRecord[] {
    const live = this.#entries.slice(this.#head).filter(isLive).map((e) => e.job);
    this.#entries = [];
    this.#head = 0;
    this.#held = 0;
    return live;
  }

  /** The first ready live job past the held ones; dead entries met on the way are dropped. */
  #shiftReady(now: number): JobRecord | undefined {
    for (let i = this.#head; i < this.#entries.length;) {
      const entry = this.#entries[i]!;
      const live = isLive(entry);
      if (live && entry.notBefore > now) { i++; continue; }
      this.#entries.splice(i, 1);
      if (entry.notBefore > 0) this.#held--;
      if (live) return entry.job;
    }
    return undefined;
  }
}

const isLive = (entry: Entry): boolean => entry.job.status === 'IN_QUEUE' && entry.job.queueToken === entry.token;
