import type { ApiClient, ApiResult, CallOptions } from '../../../../lib/client/api.js';
import type { JobStatus } from '../../../../lib/types.gen.js';
import type { Emu, TargetContext } from '../../../support/fixtures.js';
import { test } from '../../../support/fixtures.js';
import { blocked, breaks, needsOperation } from '../../../support/rules.js';
import { answerLine } from '../../../../lib/client/absence.js';
import { SetupError } from '../../../../lib/errors.js';
import { loadUndici } from '../../../../lib/client/transport.js';
import { lacking } from '../../../support/needs.js';

/** Worker timings the emulator's control surface sets (`PUT /__emulator/worlds/:id/timings`). */
export interface Timings { coldStartMs?: number; executionMs?: number; executionTimeoutMs?: number; automaticRetries?: number }

export const TERMINAL: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Status polling in real time: the spec gives no time for a job's moves ("Moves from `IN_QUEUE`
 * to `IN_PROGRESS` ...: not shown"), so a wait is read with a pause that doubles from `firstMs`
 * up to `maxMs`: a job that ends soon is seen soon, and a long one (a queue, a cold start, an
 * attempt retried) costs a few reads rather than one a second. A deployment counts every request
 * against its rate limit: a job seen a few seconds after it ended costs nothing, a read more does.
 */
export const REAL_POLL = { firstMs: 3_000, maxMs: 15_000 } as const;

/**
 * The queue-based endpoint running the conformance handler (HANDLER.md): the one seeded in
 * the test's emulator world, or `CPC_ENDPOINT_ID` on a real target; the test skips without one.
 */
export function conformanceEndpoint(target: TargetContext, emu: Emu): string {
  const id = (emu.world?.seeded.CPC_ENDPOINT_ID as string | undefined) ?? target.endpointId;
  return id ?? lacking(test.info(), 'workerEndpoint');
}

/**
 * The job operations of one endpoint, plus the waiting a test needs: on the emulator by
 * moving the virtual clock, elsewhere by bounded polling in real time.
 */
/** Refusals of a request's form (a bad request, a length or media type required, unprocessable), as opposed to its credentials, target or timing. */
const BODY_REFUSALS: ReadonlySet<number> = new Set([400, 411, 415, 422]);

export class Jobs {
  constructor(readonly api: ApiClient, readonly endpointId: string, readonly emu: Emu) {}

  #params(extra: Record<string, string> = {}): Record<string, string> {
    return { endpointId: this.endpointId, ...extra };
  }

  run(input: Record<string, unknown>, options: CallOptions = {}): Promise<ApiResult> {
    return this.api.op('run', { params: this.#params(), body: { input }, ...options });
  }

  runsync(input: Record<string, unknown>, query: Record<string, string | number> = {}, options: CallOptions = {}): Promise<ApiResult> {
    return this.api.op('runSync', { params: this.#params(), body: { input }, query, ...options });
  }

  status(jobId: string, query: Record<string, string | number> = {}, options: CallOptions = {}): Promise<ApiResult> {
    return this.api.op('getJobStatus', { params: this.#params({ jobId }), query, ...options });
  }

  stream(jobId: string): Promise<ApiResult> {
    return this.api.op('streamJob', { params: this.#params({ jobId }) });
  }

  /** `cancel`, `retry` and `purgeQueue` are sent with no body: the spec's "Request: none". */
  cancel(jobId: string, options: CallOptions = {}): Promise<ApiResult> {
    return this.#bodiless('cancelJob', this.#params({ jobId }), options);
  }

  retry(jobId: string, options: CallOptions = {}): Promise<ApiResult> {
    return this.#bodiless('retryJob', this.#params({ jobId }), options);
  }

  purge(options: CallOptions = {}): Promise<ApiResult> {
    return this.#bodiless('purgeQueue', this.#params(), options);
  }

  /**
   * Sends a bodiless operation. A refusal of the request itself ({@link BODY_REFUSALS}) that
   * `{}` would not get breaks JOB.HTTP.NO_REQUEST_BODY (the test stops there, its own rules
   * blocked); any other answer goes back to the test. A refusal for the job's state (409) is not
   * the body's: the state may have changed before `{}` was sent (a job that failed meanwhile).
   */
  async #bodiless(operation: 'cancelJob' | 'retryJob' | 'purgeQueue', params: Record<string, string>, options: CallOptions): Promise<ApiResult> {
    const res = await this.api.op(operation, { params, ...options });
    if (!BODY_REFUSALS.has(res.status) || options.auth !== undefined) return res;
    const withBody = await this.api.op(operation, { params, body: {}, ...options });
    if (withBody.status >= 200 && withBody.status < 300) {
      breaks('JOB.HTTP.NO_REQUEST_BODY', `/${operation} with no body answered ${res.status} (${res.text.slice(0, 160) || 'an empty body'}); with {} it answered ${withBody.status}`, res);
    }
    return res;
  }

  health(options: CallOptions = {}): Promise<ApiResult> {
    return this.api.op('getHealth', { params: this.#params(), ...options });
  }

  /**
   * Submits with /run and returns the job id. Any 2xx with a string id will do (the success
   * status is OBSERVED, JOB.RUN.SUCCESS_200). Otherwise /run broke its own rule, JOB.RUN.RESPONSE
   * ("/run answers {id, status}"), and the calling test fails that rule, not its own; a 429 is
   * the rate limit, not an answer about the job: the test is blocked.
   */
  async submit(input: Record<string, unknown>): Promise<string> {
    return this.submitted(await this.run(input));
  }

  /** The job id of a /run answer already received, judged as {@link submit} judges its own. */
  submitted(res: ApiResult): string {
    const id = (res.body as { id?: unknown } | undefined)?.id;
    if (res.status >= 200 && res.status < 300 && typeof id === 'string') return id;
    if (res.status === 429) throw new SetupError(`/run answered 429 (rate limited): ${res.text.slice(0, 200)}`);
    // A /run that is not there is the availability test's finding (available.spec.ts), once.
    needsOperation(res);
    return breaks('JOB.RUN.RESPONSE', `/run of a valid job answered ${res.status}${typeof id === 'string' ? '' : ' without an id'}: ${res.text.slice(0, 200) || '(an empty body)'}`, res);
  }

  /**
   * Reads /status until `done` holds: on the emulator, advancing the clock `stepMs` between
   * reads (at most `maxVirtualMs` in all); elsewhere, in real time for at most `maxRealMs`,
   * backing off between reads ({@link REAL_POLL}) and reading first one pause after
   * `notBeforeMs` have passed (the soonest the job can have reached the status the test waits
   * for; a read at that very instant would mostly find the job a moment short of it). A job
   * that took that long may take as long again (another attempt, a queue), so the pauses after
   * it are a share of it. `pauseMs` sets the first pause itself (a watch that only needs a read
   * at its start and one at its end). Returns every status seen, in order, the last answer and,
   * in real time, `pendingMs`: how long after the call the last read that did not end the wait
   * came (a lower bound of how long the job took; 0 when the first read ended it).
   */
  async until(jobId: string, done: (status: JobStatus | undefined) => boolean, opts: { stepMs?: number; maxVirtualMs?: number; maxRealMs?: number; notBeforeMs?: number; pauseMs?: number } = {}): Promise<{ seen: (JobStatus | undefined)[]; last: ApiResult; pendingMs: number }> {
    const seen: (JobStatus | undefined)[] = [];
    const started = Date.now();
    let pendingMs = 0;
    const deadline = started + (opts.maxRealMs ?? 60_000);
    // In real time the wait is the test's time too: its timeout grows by the wait, so a job slow to
    // start ends the wait (and the test decides what that means), never the test's timeout.
    if (!this.emu.available) test.setTimeout(test.info().timeout + (opts.maxRealMs ?? 60_000) + (opts.notBeforeMs ?? 0));
    let moved = 0;
    let pauseMs: number = opts.pauseMs ?? Math.min(Math.max(REAL_POLL.firstMs, (opts.notBeforeMs ?? 0) / 2), REAL_POLL.maxMs);
    if (!this.emu.available && opts.notBeforeMs) {
      // One read before the pause: a /status that is not there, or an answer that will not
      // change, stops the wait now rather than after it (the read decides nothing else).
      stopUnlessPassing(await this.status(jobId), `before waiting for job ${jobId}`);
      await sleep(opts.notBeforeMs + REAL_POLL.firstMs);
    }
    for (;;) {
      const readAt = Date.now() - started;
      const last = await this.status(jobId);
      const status = last.status >= 200 && last.status < 300 ? (last.body as { status?: JobStatus }).status : undefined;
      if (seen.at(-1) !== status || seen.length === 0) seen.push(status);
      if (done(status)) return { seen, last, pendingMs };
      stopUnlessPassing(last, `while waiting for job ${jobId}`);
      pendingMs = readAt;
      if (this.emu.available) {
        if (moved >= (opts.maxVirtualMs ?? 3_600_000)) return { seen, last, pendingMs };
        const step = opts.stepMs ?? 1000;
        await this.emu.advance(step);
        moved += step;
      } else {
        const left = deadline - Date.now();
        if (left <= 0) return { seen, last, pendingMs };
        // The last read falls on the deadline, not past it.
        await sleep(Math.min(pauseMs, left));
        pauseMs = Math.min(pauseMs * 2, Math.max(REAL_POLL.maxMs, pauseMs));
      }
    }
  }

  /**
   * Skips the test when, in real time, the job it waited for ({@link until}) is still waiting or
   * running: the spec bounds neither a queue nor a cold start ("Moves from `IN_QUEUE` to
   * `IN_PROGRESS` ...: not shown"), so a job slow to start is no finding, and the checks that
   * needed it ended are not made. On the emulator the test sets the timings, and the virtual
   * clock ran past them: a job still pending there is judged by the test's checks.
   */
  skipIfStillPending(watch: { last: ApiResult }, waitedMs: number, forWhat: string): void {
    if (this.emu.available) return;
    const status = (watch.last.body as { status?: JobStatus } | undefined)?.status;
    test.skip(status === 'IN_QUEUE' || status === 'IN_PROGRESS',
      `the job was still ${status} after ${Math.round(waitedMs / 1000)} s of waiting (a queue or a cold start, bounded by nothing in the spec): no ended job ${forWhat}`);
  }

  /**
   * Waits (real time, bounded) until the endpoint's health shows at least `n` jobs waiting or
   * running: a request sent without awaiting its answer has then reached the target, so the
   * clock can be moved under it.
   */
  async untilActive(n: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await this.health();
      stopUnlessPassing(res, `while waiting for ${n} active job(s)`);
      const jobs = (res.body as { jobs?: { inQueue?: number; inProgress?: number } } | undefined)?.jobs;
      if ((jobs?.inQueue ?? 0) + (jobs?.inProgress ?? 0) >= n) return;
      if (Date.now() > deadline) throw new SetupError(`the endpoint never showed ${n} active job(s): ${res.text.slice(0, 200)}`);
      await sleep(20);
    }
  }
}

/**
 * Answers a wait sits out: the rate limit, a service briefly unavailable, and a gateway that
 * lost or timed out on its upstream (502, 504: a reset between a load balancer and the service)
 * — each may pass, and none says anything of the job.
 */
const PASSING = new Set([429, 502, 503, 504]);

/**
 * Stops a poll or wait at once on an answer that will not change (a 4xx or 5xx other than
 * those {@link PASSING}): the test is blocked with that answer as the reason, never left to its timeout.
 */
export function stopUnlessPassing(res: ApiResult, what: string): void {
  needsOperation(res);
  if (res.status >= 400 && !PASSING.has(res.status)) blocked(`${answerLine(res)} ${what}: ${res.text.slice(0, 160) || '(an empty body)'}`);
}

/** Sets the emulator's worker timings for this test's world (the test must have called emu.require). */
export async function setTimings(emu: Emu, timings: Timings): Promise<void> {
  emu.require('set worker timings');
  const { request } = await loadUndici();
  const res = await request(`${emu.control!.baseUrl}/__emulator/worlds/${emu.world!.id}/timings`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(timings),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new SetupError(`setting timings answered ${res.statusCode}: ${text}`);
}

/**
 * Whether `promise` settles within `ms` of real time (for "answered no later than" checks):
 * true as soon as it settles, false once `ms` have passed without.
 */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((answer) => {
    const timer = setTimeout(() => answer(false), ms);
    const settled = (): void => { clearTimeout(timer); answer(true); };
    promise.then(settled, settled);
  });
}

/** The conformance endpoint's job operations for one test. */
export const jobsFor = ({ api, emu, target }: { api: ApiClient; emu: Emu; target: TargetContext }): Jobs =>
  new Jobs(api, conformanceEndpoint(target, emu), emu);

/**
 * How long, in real time, a request waiting on the virtual clock is given to answer after a
 * move of the clock that must not end its wait (the "not before" checks). The emulator moves
 * its clock in one step and answers whatever came due in the same turn as the move itself, so
 * an early answer is already on its way when `advance` returns: the window covers its delivery
 * on loopback, not any work of the target's.
 */
export const EARLY_ANSWER_WINDOW_MS = 100;

/**
 * Awaits a request that waits on virtual time. If it has not answered within `ms` of real
 * time, the clock jumps past the longest wait (300 s) so a target that waits too long cannot
 * hang the test; `late` tells the caller it had to.
 */
export async function release<T>(emu: Emu, pending: Promise<T>, ms = 2_000): Promise<{ value: T; late: boolean }> {
  const late = !(await settlesWithin(pending, ms));
  if (late && emu.available) await emu.advance(300_001);
  return { value: await pending, late };
}

/**
 * Marks a request the test sends before moving the clock as handled, so that if the test fails
 * before awaiting it, its rejection (the request context closing) is not reported as an error
 * outside any test; awaiting it still throws.
 */
export function inFlight<T>(request: Promise<T>): Promise<T> {
  request.catch(() => undefined);
  return request;
}

/** What a /runsync answer says about a job that should end within the wait. */
export type WaitJudgement =
  | { kind: 'ended'; res: ApiResult }
  /** Answered with the job not ended before the wait had passed: the wait did not control the waiting. */
  | { kind: 'early'; res: ApiResult; why: string }
  /** Not ended when the wait had passed: the job started late (a queue, a cold start; the spec bounds neither). */
  | { kind: 'late-job'; res: ApiResult; why: string }
  /** No answer once the wait had passed (virtual clock only: the clock then jumps past 300 s). */
  | { kind: 'no-answer'; res: ApiResult; why: string };

const statusIn = (res: ApiResult): string | undefined => (res.body as { status?: unknown } | undefined)?.status as string | undefined;

/**
 * Judges a /runsync (already sent, `pending`) whose job should end `endsAtMs` after it starts,
 * within a wait of `waitMs`, by what the target says of the job, never by when the suite
 * assumes it started: a job may wait in a queue or for a cold start first, and the spec bounds
 * neither. A terminal answer ended in time; a non-terminal answer before the wait had passed is
 * early; a non-terminal answer once it had passed is the job's lateness, which decides nothing.
 * On the virtual clock the test has seen the job reach the endpoint (`untilActive`); the clock
 * moves to the job's end, then to just before the wait's end, then past it. On a real clock the
 * target's answer time (the transport's, without any rate-limit wait) tells early from late.
 */
export async function judgeWithinWait(emu: Emu, pending: Promise<ApiResult>, endsAtMs: number, waitMs: number): Promise<WaitJudgement> {
  const judge = (res: ApiResult, early: boolean): WaitJudgement => {
    const status = statusIn(res);
    if (status !== undefined && TERMINAL.has(status)) return { kind: 'ended', res };
    const what = `/runsync with a wait of ${waitMs} ms answered ${res.status} ${status ?? '(no job status)'}`;
    return early ? { kind: 'early', res, why: `${what} before the wait had passed` }
      : { kind: 'late-job', res, why: `${what} once the wait had passed: the job had not ended (a queue or a cold start first; the spec bounds neither), so the answer cannot decide the wait` };
  };
  if (!emu.available) {
    const res = await pending;
    return judge(res, res.durationMs < waitMs * 0.98);
  }
  await emu.advance(endsAtMs);
  if (await settlesWithin(pending, 2_000)) return judge(await pending, true);
  const beforeEnd = Math.max(0, waitMs - endsAtMs - 100);
  if (beforeEnd > 0) {
    await emu.advance(beforeEnd);
    if (await settlesWithin(pending, EARLY_ANSWER_WINDOW_MS)) return judge(await pending, true);
  }
  await emu.advance(waitMs - endsAtMs - beforeEnd);
  const { value, late } = await release(emu, pending);
  if (late) return { kind: 'no-answer', res: value, why: `/runsync with a wait of ${waitMs} ms had not answered once the wait had passed` };
  return judge(value, false);
}

/** What /status shows of each job, in order (undefined: the answer carries no job object). */
export function statusesOf(jobs: Jobs, ids: readonly string[]): Promise<(string | undefined)[]> {
  return Promise.all(ids.map(async (id) => {
    const res = await jobs.status(id);
    needsOperation(res);
    return res.status >= 200 && res.status < 300 ? statusIn(res) : undefined;
  }));
}
