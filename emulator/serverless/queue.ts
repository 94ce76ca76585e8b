import type { JobRecord } from './job.js';

interface Entry { job: JobRecord; token: number }

/**
 * An endpoint's FIFO of waiting jobs. Cancelled entries stay until they reach the head and
 * are skipped there (an entry is live while its job is IN_QUEUE with the token it was queued
 * with), so cancelling is O(1) and a million queued jobs cost one array.
 */
export class JobQueue {
  #entries: Entry[] = [];
  #head = 0;

  push(job: JobRecord): void {
    job.queueToken++;
    this.#entries.push({ job, token: job.queueToken });
  }

  /** The oldest live job, removed from the queue. */
  shift(): JobRecord | undefined {
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

  /** The newest live job, removed from the queue (the variant `jobs.dispatch-newest-first`). */
  pop(): JobRecord | undefined {
    for (let i = this.#entries.length - 1; i >= this.#head; i--) {
      const entry = this.#entries[i]!;
      if (!isLive(entry)) continue;
      this.#entries.splice(i, 1);
      return entry.job;
    }
    return undefined;
  }

  /** Removes and returns every live job, oldest first. */
  drain(): JobRecord[] {
    const live = this.#entries.slice(this.#head).filter(isLive).map((e) => e.job);
    this.#entries = [];
    this.#head = 0;
    return live;
  }
}

const isLive = (entry: Entry): boolean => entry.job.status === 'IN_QUEUE' && entry.job.queueToken === entry.token;
