import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, rules, unchecked, type Finding } from '../../support/rules.js';
import { jobWork } from '../../../lib/worker-time.js';
import { statusOf } from '../../checks/job-conformance.js';
import { jobsFor, REAL_POLL, stopUnlessPassing, TERMINAL, type Jobs } from './support/jobs.js';
import { SetupError } from '../../../lib/errors.js';
import type { ApiResult } from '../../../lib/client/api.js';
import { RETENTION_MS, WAIT_MS } from '../../../lib/iso/spec-constants.js';

// Spec, Limits: "Result retention | 1 minute after completion (up to 5 minutes when the wait parameter
// is used) | `/runsync` jobs"; "Result retention | 30 minutes after completion | `/run` jobs"; "`wait`
// ... controls how long the request waits, not retention"; /retry: "Re-queues a job that ended FAILED
// or TIMED_OUT, if its result has not expired".
//
// On a deployment, in real time, behind the long-wait opt-in (CPC_ALLOW_LONG_WAITS): every window is
// watched at once, so the test lasts about the longest (30 minutes), not their sum. Each read is
// placed by a bound that holds however fast the target answers: a "still readable" read counts
// from before the job was sent (it completed later), a "gone" read from after it was seen
// completed (it completed earlier). An emulator decides the same rules on its virtual clock
// (retention.spec.ts, retry.spec.ts).

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const SLACK_MS = 5_000;

/**
 * A completed /runsync job: its id, when it was sent, and when it was seen completed. The
 * answer may come before the job ends (the wait ran out first: the spec's "how long the request
 * waits"); then /status is read until it does. It completed after `sentAt` and by `answeredAt`.
 */
async function completedSync(jobs: Jobs, query: Record<string, number> = {}): Promise<{ id: string; sentAt: number; answeredAt: number }> {
  const sentAt = Date.now();
  const res = await jobs.runsync({ echo: 'kept' }, query);
  const id = (res.body as { id?: unknown } | undefined)?.id;
  if (statusOf(res) === 'COMPLETED' && typeof id === 'string') return { id, sentAt, answeredAt: Date.now() };
  if (res.status < 200 || res.status >= 300 || typeof id !== 'string') throw new SetupError(`setup: /runsync answered ${res.status} ${res.text.slice(0, 200)}`);
  const ended = await untilEnded(jobs, id, sentAt);
  if (ended.status !== 'COMPLETED') throw new SetupError(`setup: the /runsync job ended ${ended.status}`);
  return { id, sentAt, answeredAt: ended.seenAt };
}

/** A /run job until it ends: its id, its end, and the moment of the last read before it (it ended after that). */
async function endedRun(jobs: Jobs, input: Record<string, unknown>): Promise<{ id: string; status: string | undefined; notBefore: number; seenAt: number }> {
  const id = await jobs.submit(input);
  return { id, ...(await untilEnded(jobs, id, Date.now())) };
}

/**
 * Reads a job's /status until it ends (at most 5 minutes), backing off as any status wait does
 * (REAL_POLL); `notBefore`: the last read before the end. A coarser read only widens the bounds
 * each check counts from, to the safe side: a "still readable" read counts from `notBefore` (earlier), a "gone" one from `seenAt` (later).
 */
async function untilEnded(jobs: Jobs, id: string, since: number): Promise<{ status: string | undefined; notBefore: number; seenAt: number }> {
  let notBefore = since;
  let pauseMs: number = REAL_POLL.firstMs;
  for (;;) {
    const readAt = Date.now();
    const res = await jobs.status(id);
    stopUnlessPassing(res, 'while the job was read until it ended');
    const status = statusOf(res);
    if (status !== undefined && TERMINAL.has(status)) return { status, notBefore, seenAt: Date.now() };
    if (Date.now() - since > 5 * 60_000) throw new SetupError(`setup: the job had not ended 5 minutes after it was sent (${status})`);
    notBefore = readAt;
    await sleep(pauseMs);
    pauseMs = Math.min(pauseMs * 2, REAL_POLL.maxMs);
  }
}

/**
 * The answer, unless it says nothing of the job: a 429 (or 503) the client gave back once the
 * test's wait for the rate limit ran out (the suite shares the account beside this test) decides
 * nothing, and is noted; read as "gone", it would pass a retention check it never made.
 */
function judged(res: ApiResult, rule: string): ApiResult | undefined {
  if (res.status !== 429 && res.status !== 503) return res;
  unchecked(rule, `the read was answered ${res.status} (the rate limit, after the test's wait for it ran out): it says nothing of the result`);
  return undefined;
}

/** Whether the result is readable (undefined: the answer says nothing of it, noted). */
const readable = async (jobs: Jobs, id: string, rule: string): Promise<boolean | undefined> => {
  const res = judged(await jobs.status(id), rule);
  return res && statusOf(res) === 'COMPLETED';
};

/**
 * Reads a result that must still be kept `limitMs` after `since` (before its completion): a
 * read the client held back for the rate limit until past that bound decides nothing, and is noted.
 */
async function readBefore(jobs: Jobs, id: string, since: number, limitMs: number, rule: string): Promise<ApiResult | undefined> {
  const res = judged(await jobs.status(id), rule);
  if (!res || Date.now() - since < limitMs) return res;
  unchecked(rule, `the read came ${((Date.now() - since) / 1000).toFixed(0)} s after the job was sent (the rate limit held it back), past the window it was to read inside`);
  return undefined;
}

test.describe('result retention in real time', () => {
  test('the retention windows side by side: 1 minute, 5 minutes with wait, 30 minutes for /run, wait is not retention, no /retry after expiry', rules(
    'LIMIT.RUNSYNC.RETENTION_1_MIN', 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION', 'LIMIT.RUN.RETENTION_30_MIN', 'LIMIT.RETRY.AFTER_EXPIRY',
    needs('longWaits', 'workerEndpoint'),
    // Five quick jobs, and the failing one (and its /retry, should the target take it).
    creates({ work: jobWork({ ms: 0, runs: 5 }, { ms: 0, runs: 2, failing: true }) }),
  ), async ({ api, emu, target }) => {
    test.setTimeout(RETENTION_MS.run + 10 * 60_000);
    const jobs = jobsFor({ api, emu, target });
    const findings: Finding[] = [];
    const oneMinute = async () => {
      const job = await completedSync(jobs);
      await sleep(job.sentAt + RETENTION_MS.runsync - SLACK_MS - Date.now());
      const res = await readBefore(jobs, job.id, job.sentAt, RETENTION_MS.runsync, 'LIMIT.RUNSYNC.RETENTION_1_MIN');
      if (res) findings.push(...must(statusOf(res) === 'COMPLETED' && 'output' in (res.body as object), 'LIMIT.RUNSYNC.RETENTION_1_MIN',
        `less than ${(RETENTION_MS.runsync - SLACK_MS) / 1000} s after completion /status answered ${res.status}: ${res.text.slice(0, 200)}`));
    };
    const fiveMinutes = async () => {
      const job = await completedSync(jobs, { wait: 30_000 });
      await sleep(job.answeredAt + RETENTION_MS.runsyncWithWait + SLACK_MS - Date.now());
      const res = judged(await jobs.status(job.id), 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN');
      if (res) findings.push(...must(statusOf(res) !== 'COMPLETED', 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', `more than 5 min after completion the result is still readable: ${res.text.slice(0, 200)}`));
    };
    // Away from the 1-minute bound, where two results completed seconds apart may fairly differ.
    const sameForAnyWait = async () => {
      const short = await completedSync(jobs, { wait: WAIT_MS.min });
      const long = await completedSync(jobs, { wait: WAIT_MS.max });
      for (const at of [30_000, 180_000]) {
        await sleep(short.answeredAt + at - Date.now());
        const [a, b] = [await readable(jobs, short.id, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION'), await readable(jobs, long.id, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION')];
        // Both read well inside one window (either side of the 1-minute bound); a read held back past the next bound is not compared.
        if (a === undefined || b === undefined || Date.now() - short.sentAt > at + 25_000) continue;
        findings.push(...must(a === b, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION', `about ${at / 1000} s after completion: wait=1000 result ${a ? 'readable' : 'gone'}, wait=300000 result ${b ? 'readable' : 'gone'}`));
      }
      await sleep(long.answeredAt + RETENTION_MS.runsyncWithWait + SLACK_MS - Date.now());
      const [a, b] = [await readable(jobs, short.id, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION'), await readable(jobs, long.id, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION')];
      if (a !== undefined && b !== undefined) findings.push(...must(!a && !b, 'LIMIT.RUNSYNC.WAIT_NOT_RETENTION', 'a result is still readable more than 5 minutes after completion'));
    };
    const thirtyMinutes = async () => {
      const job = await endedRun(jobs, { echo: 'kept' });
      if (job.status !== 'COMPLETED') throw new SetupError(`setup: the /run job ended ${job.status}`);
      await sleep(job.notBefore + RETENTION_MS.run - 30_000 - Date.now());
      const res = await readBefore(jobs, job.id, job.notBefore, RETENTION_MS.run, 'LIMIT.RUN.RETENTION_30_MIN');
      if (res) findings.push(...must(statusOf(res) === 'COMPLETED' && 'output' in (res.body as object), 'LIMIT.RUN.RETENTION_30_MIN',
        `less than 29 min 30 s after completion /status answered ${res.status}: ${res.text.slice(0, 200)}`));
    };
    const retryAfterExpiry = async () => {
      const job = await endedRun(jobs, { fail: 'expired' });
      if (job.status !== 'FAILED') throw new SetupError(`setup: the failing job ended ${job.status}`);
      await sleep(job.seenAt + RETENTION_MS.run + SLACK_MS - Date.now());
      const res = judged(await jobs.retry(job.id), 'LIMIT.RETRY.AFTER_EXPIRY');
      if (!res) return;
      const requeued = res.status >= 200 && res.status < 300 && (res.body as { status?: string } | undefined)?.status === 'IN_QUEUE';
      findings.push(...must(!requeued, 'LIMIT.RETRY.AFTER_EXPIRY', `/retry more than 30 min after the job failed answered ${res.status} ${res.text.slice(0, 200)}`));
    };
    // Each window on its own: one whose setup the target did not give (a job that failed, a
    // refusal) leaves its rule unchecked with the reason, and the others still decide theirs.
    const windows: [string, () => Promise<void>][] = [
      ['LIMIT.RUNSYNC.RETENTION_1_MIN', oneMinute], ['LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', fiveMinutes],
      ['LIMIT.RUNSYNC.WAIT_NOT_RETENTION', sameForAnyWait], ['LIMIT.RUN.RETENTION_30_MIN', thirtyMinutes], ['LIMIT.RETRY.AFTER_EXPIRY', retryAfterExpiry],
    ];
    const settled = await Promise.allSettled(windows.map(([, run]) => run()));
    const errors = settled.flatMap((s, i) => (s.status === 'rejected' ? [{ rule: windows[i]![0], error: s.reason as unknown }] : []));
    const other = errors.find((e) => !(e.error instanceof SetupError));
    if (other) throw other.error;
    if (errors.length === windows.length) throw errors[0]!.error;
    for (const e of errors) unchecked(e.rule, (e.error as Error).message);
    conform(findings);
  });
});
