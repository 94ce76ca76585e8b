import type { StreamItem } from '../../lib/types.gen.js';
import { endpointObservers, endpointPodProviders, endpointsSlice, type EndpointRecord } from '../state/endpoints.js';
import { defineSlice, type World } from '../world.js';
import type { JobOptions } from './job-options.js';
import { Webhooks } from './webhook.js';
import { isTerminal, jobObject, newJob, RETRYABLE, syncId, type JobRecord } from './job.js';
import { RetentionLists, retentionMs } from './retention.js';
import { EndpointRuntime, type RuntimeHost } from './runtime.js';
import { DEFAULT_TIMINGS, type Timings } from './settings.js';

export interface SubmitOptions { sync: boolean; waitGiven: boolean; options?: JobOptions }

/**
 * One world's serverless jobs: a runtime per queue-based endpoint, every job by id until its
 * result expires (retention timers on the virtual clock keep memory bounded), and the
 * requests waiting on a job (/runsync, /status-sync).
 */
export class JobStore implements RuntimeHost {
  #timings: Timings = { ...DEFAULT_TIMINGS };
  readonly #jobs = new Map<string, JobRecord>();
  /** Expired failed jobs, kept only while the `serverless.retry-after-expiry` fault is on. */
  readonly #expired = new Map<string, JobRecord>();
  readonly #runtimes = new Map<string, EndpointRuntime>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #retention: RetentionLists;
  readonly #webhooks: Webhooks;

  constructor(readonly world: World) {
    this.#retention = new RetentionLists(world.clock, (job, at) => { if (job.expiresAt === at && !job.ttlSet) this.#expire(job); });
    this.#webhooks = new Webhooks(world.clock);
    for (const endpoint of world.get(endpointsSlice).all()) this.onEndpointChange(undefined, endpoint);
    // On reset or deletion: no timer of this store fires again, and no request waits forever.
    world.onDispose(() => {
      for (const runtime of this.#runtimes.values()) runtime.stop();
      this.#retention.dispose();
      this.#webhooks.dispose();
      this.#wakeAll();
    });
  }

  timings(): Timings {
    return this.#timings;
  }

  /** Jobs held now (results not yet expired): what retention keeps bounded. */
  get size(): number {
    return this.#jobs.size;
  }

  setTimings(patch: Partial<Timings>): Timings {
    this.#timings = { ...this.#timings, ...patch };
    return this.#timings;
  }

  /** Keeps one runtime per queue-based endpoint; idempotent, so a replayed change is harmless. */
  onEndpointChange(before: EndpointRecord | undefined, after: EndpointRecord | undefined): void {
    const id = (after ?? before)!.id;
    const runtime = this.#runtimes.get(id);
    if (!after || after.type !== 'QB' || after.publicModel) {
      if (runtime) this.#dropEndpoint(id, runtime);
      return;
    }
    if (runtime) { if (runtime.endpoint !== after) runtime.update(after); return; }
    const created = new EndpointRuntime(after, this);
    this.#runtimes.set(id, created);
    created.schedule();
  }

  runtimeOf(endpoint: EndpointRecord): EndpointRuntime | undefined {
    return this.#runtimes.get(endpoint.id);
  }

  submit(runtime: EndpointRuntime, input: Record<string, unknown>, options: SubmitOptions): JobRecord {
    const plain = this.world.nextId('job-');
    const id = options.sync && !this.world.fault('serverless.runsync-no-sync-prefix') ? syncId(this.world, plain) : plain;
    const job = newJob(id, runtime.endpoint.id, runtime.endpoint.accountId, input, options.sync, options.waitGiven, this.world.clock.now(), options.options);
    this.#jobs.set(id, job);
    // `policy.ttl`: the job's whole lifespan from submission, whatever its status then.
    if (job.options.ttlMs !== undefined) { job.ttlSet = true; this.#expireAt(job, job.queuedAt + job.options.ttlMs); }
    runtime.admit(job);
    return job;
  }

  /**
   * The variant `jobs.health-held-counts`: `completed`, `failed` and `retried` of /health count
   * the endpoint's jobs held now (results not yet expired) that completed, failed or timed out,
   * and that run again after a failed attempt, instead of counting since the endpoint began.
   */
  heldCounts(endpointId: string): { completed: number; failed: number; retried: number } {
    const counts = { completed: 0, failed: 0, retried: 0 };
    for (const job of this.#jobs.values()) {
      if (job.endpointId !== endpointId) continue;
      if (job.status === 'COMPLETED') counts.completed++;
      else if (job.status === 'FAILED' || job.status === 'TIMED_OUT') counts.failed++;
      if (job.attempt > 1) counts.retried++;
    }
    return counts;
  }

  /** The job if it belongs to this endpoint (another endpoint's job is as unknown as none). */
  find(endpointId: string, jobId: string): JobRecord | undefined {
    const job = this.#jobs.get(jobId);
    return job && job.endpointId === endpointId ? job : undefined;
  }

  /** Under the retry-after-expiry fault, an expired failed job still answers /retry. */
  findExpired(endpointId: string, jobId: string): JobRecord | undefined {
    const job = this.#expired.get(jobId);
    return job && job.endpointId === endpointId ? job : undefined;
  }

  /** FAILED or TIMED_OUT back to IN_QUEUE: same id, same input, output gone. */
  retry(runtime: EndpointRuntime, job: JobRecord): JobRecord {
    job.expiry?.cancel();
    job.expiry = undefined;
    job.expiresAt = undefined;
    job.ttlSet = false;
    this.#expired.delete(job.id);
    this.#jobs.set(job.id, job);
    const previousItems = job.stream;
    runtime.requeue(job, true);
    // The fault's FAILED job showed its items as output (ops-submit.ts); /retry keeps them.
    if (this.world.fault('serverless.retry-keeps-output')) job.output = previousItems?.map((i) => i.output);
    return job;
  }

  purge(runtime: EndpointRuntime): number {
    const removed = runtime.purge(this.world.fault('serverless.purge-removes-running'));
    // Variant `jobs.purged-kept-cancelled`: a purged job stays readable as CANCELLED until its retention ends.
    const kept = this.world.variant('jobs.purged-kept-cancelled');
    for (const job of removed) {
      if (!kept) this.#remove(job);
      else { job.finishedAt = this.world.clock.now(); this.settled(job); }
    }
    return removed.length;
  }

  /** `ttl` on /status: the job goes `ms` from now, whatever its status (CHOICES.md). */
  setTtl(job: JobRecord, ms: number): void {
    if (this.world.fault('serverless.status-ttl-ignored')) return;
    job.ttlSet = true;
    this.#expireAt(job, this.world.clock.now() + ms);
  }

  /** Stream items the client has not been given yet (the official SDK polls and yields each). */
  takeStream(job: JobRecord): StreamItem[] {
    if (!job.stream) return [];
    const items = job.stream.slice(job.streamCursor);
    job.streamCursor = job.stream.length;
    return items;
  }

  /**
   * Waits until the job is terminal or removed, or `ms` of virtual time pass, and resolves with
   * `view()` taken at that virtual instant. Taken then, not when the caller resumes: an auto
   * clock fires every timer due in one real turn together (a busy machine's late turn), so a job
   * ending a minute of virtual time after the wait would otherwise show in the wait's answer.
   */
  waitFor<T>(job: JobRecord, ms: number, view: () => T): Promise<T> {
    if (isTerminal(job.status) || !this.#jobs.has(job.id)) return Promise.resolve(view());
    return new Promise((resolve, reject) => {
      let set = this.#waiters.get(job.id);
      if (!set) { set = new Set(); this.#waiters.set(job.id, set); }
      const waiters = set;
      // A view that throws fails this request only, never the clock's or the store's loop that woke it.
      const answer = (): void => { try { resolve(view()); } catch (e) { reject(e as Error); } };
      const timer = this.world.clock.at(this.world.clock.now() + ms, () => { waiters.delete(wake); answer(); });
      const wake = (): void => { timer.cancel(); answer(); };
      waiters.add(wake);
    });
  }

  /** RuntimeHost: a job ended; its retention starts, its waiters wake and its webhook is called. */
  settled(job: JobRecord): void {
    if (job.options.webhook !== undefined) this.#webhooks.deliver(job.options.webhook, jobObject(job));
    if (!job.ttlSet) {
      const retention = retentionMs(this.world, job);
      job.expiresAt = this.world.clock.now() + retention;
      this.#retention.add(job, job.expiresAt, retention);
    }
    this.#wake(job.id);
  }

  /** A deadline of the job's own (`ttl`): one timer for this job. */
  #expireAt(job: JobRecord, at: number): void {
    job.expiry?.cancel();
    job.expiresAt = at;
    job.expiry = this.world.clock.at(at, () => this.#expire(job));
  }

  #expire(job: JobRecord): void {
    job.expiry?.cancel();
    job.expiry = undefined;
    if (!isTerminal(job.status)) {
      const runtime = this.#runtimes.get(job.endpointId);
      job.ttlSet = true;
      runtime?.cancel(job);
    }
    this.#remove(job);
    if (RETRYABLE.has(job.status) && this.world.fault('serverless.retry-after-expiry')) this.#expired.set(job.id, job);
  }

  #remove(job: JobRecord): void {
    job.expiry?.cancel();
    if (this.#jobs.get(job.id) === job) this.#jobs.delete(job.id);
    this.#wake(job.id);
  }

  #dropEndpoint(id: string, runtime: EndpointRuntime): void {
    runtime.stop();
    this.#runtimes.delete(id);
    for (const job of [...this.#jobs.values()]) if (job.endpointId === id) this.#remove(job);
  }

  #wake(jobId: string): void {
    const set = this.#waiters.get(jobId);
    if (!set) return;
    this.#waiters.delete(jobId);
    for (const wake of set) wake();
  }

  #wakeAll(): void {
    for (const id of [...this.#waiters.keys()]) this.#wake(id);
  }
}

export const jobsSlice = defineSlice('serverless-jobs', (world) => new JobStore(world));

// Workers follow endpoints whichever surface changes them (REST v1, GraphQL, seeding).
endpointObservers.push((world, before, after) => world.get(jobsSlice).onEndpointChange(before, after));
// GraphQL `pods { desiredStatus }` shows the endpoint's current workers.
endpointPodProviders.push((world, endpoint) => world.get(jobsSlice).runtimeOf(endpoint)?.workerIds().map(() => ({ desiredStatus: 'RUNNING' })));
