/**
 * The rate-limit scenario's logic (load/lib/ratelimit-*.ts) on synthetic answers: a conformant
 * sequence passes every check, and each way of breaking the spec's words fails the check that
 * names it, and only where it applies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECK } from '../load/lib/ratelimit-checks.ts';
import { problemMessages, readRateLimit } from '../lib/iso/rate-limit-fields.ts';
import { createMonitor, type Observed, type Outcome } from '../load/lib/ratelimit-monitor.ts';

type W = { r: number; t: number };
interface Spec { status: number; minute: W; hour?: W; day?: W; q?: number; retryAfter?: string; detail?: string; type?: string }

const policy = (q: number) => `"minute";q=${q};w=60, "hour";q=1000;w=3600, "day";q=10000;w=86400`;
function res(s: Spec): Observed {
  const hour = s.hour ?? { r: 900, t: 1800 };
  const day = s.day ?? { r: 9000, t: 40000 };
  const headers: Record<string, string> = {
    Ratelimit: `"minute";r=${s.minute.r};t=${s.minute.t}, "hour";r=${hour.r};t=${hour.t}, "day";r=${day.r};t=${day.t}`,
    'Ratelimit-Policy': policy(s.q ?? 3),
  };
  if (s.status === 429) {
    headers['Retry-After'] = s.retryAfter ?? String(s.minute.t);
    headers['Content-Type'] = s.type ?? 'application/problem+json';
  }
  return { status: s.status, headers, body: s.status === 429 ? JSON.stringify({ status: 429, detail: s.detail ?? 'rate limit exceeded for the minute window' }) : '{"pods":[]}' };
}

// Every admitted request spends the hour and day windows too, so their r never repeats.
let admitted = 0;
const ok200 = (r: number, t = 30) => { admitted++; return res({ status: 200, minute: { r, t }, hour: { r: 900 - admitted, t: 1800 }, day: { r: 9000 - admitted, t: 40000 } }); };
const no429 = (t = 30) => res({ status: 429, minute: { r: 0, t }, hour: { r: 900 - admitted, t: 1800 }, day: { r: 9000 - admitted, t: 40000 } });
const failures = (outcomes: Outcome[]) => [...new Set(outcomes.filter((o) => !o.ok).map((o) => o.name))].sort();
const names = (outcomes: Outcome[]) => new Set(outcomes.map((o) => o.name));
const monitor = (ownAccount = true) => createMonitor({ ownAccount });

test('a conformant burst, refusal and recovery pass every check', () => {
  const m = monitor();
  const burst = m.observeBatch([ok200(2), no429(), ok200(1), ok200(0), no429()], 0, 50);
  assert.deepEqual(failures(burst), []);
  for (const name of [CHECK.syntax, CHECK.windows, CHECK.rDistinct, CHECK.exact, CHECK.retryAfter, CHECK.detailNamesWindow, CHECK.refusedWhenExhausted, CHECK.problemJson]) {
    assert.ok(names(burst).has(name), `ran: ${name}`);
  }
  // 31 s later the window has reset: r is back up, which is not a rise within a window.
  const after = m.observeBatch([ok200(2, 59)], 31_000, 31_010);
  assert.deepEqual(failures(after), []);
});

const broken: [string, () => Outcome[], string[]][] = [
  ['two admitted requests share an r', () => monitor().observeBatch([ok200(1), ok200(1), ok200(0), no429()], 0, 10), [CHECK.rDistinct]],
  ['a 429 while every window has quota left', () => monitor().observeBatch([ok200(2), res({ status: 429, minute: { r: 1, t: 30 } })], 0, 10), [CHECK.detailNamesWindow, CHECK.refusedWhenExhausted, CHECK.retryAfter]],
  ['refusals before the window was spent', () => monitor().observeBatch([ok200(2), ok200(1), no429()], 0, 10), [CHECK.exact]],
  ['Retry-After earlier than the window resets', () => monitor().observeBatch([ok200(0), res({ status: 429, minute: { r: 0, t: 30 }, retryAfter: '1' })], 0, 10), [CHECK.retryAfter]],
  ['Retry-After as a date', () => monitor().observeBatch([ok200(0), res({ status: 429, minute: { r: 0, t: 30 }, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' })], 0, 10), [CHECK.retryAfter]],
  ['a detail that names no window', () => monitor().observeBatch([ok200(0), res({ status: 429, minute: { r: 0, t: 30 }, detail: 'slow down' })], 0, 10), [CHECK.detailNamesWindow]],
  ['a 429 in plain JSON', () => monitor().observeBatch([ok200(0), res({ status: 429, minute: { r: 0, t: 30 }, type: 'application/json' })], 0, 10), [CHECK.problemJson]],
  ['t beyond the window length', () => monitor().observeBatch([ok200(1, 61)], 0, 10), [CHECK.tBounds]],
  ['r above the quota', () => monitor().observeBatch([ok200(7)], 0, 10), [CHECK.rBounds]],
  ['a status other than 2xx or 429', () => monitor().observeBatch([{ ...ok200(1), status: 503 }], 0, 10), [CHECK.status]],
  ['r that rises within one window', () => {
    const m = monitor();
    m.observeBatch([ok200(1, 30)], 0, 10);
    return m.observeBatch([ok200(2, 29)], 1000, 1010);
  }, [CHECK.rFalls]],
  ['a policy that changes between answers', () => {
    const m = monitor();
    m.observeBatch([ok200(2)], 0, 10);
    return m.observeBatch([res({ status: 200, minute: { r: 1, t: 29 }, hour: { r: 1, t: 1799 }, day: { r: 1, t: 39999 }, q: 4 })], 1000, 1010);
  }, [CHECK.policyConstant]],
  ['members that are Integers, not window names', () => monitor().observeBatch([{ status: 200, body: '', headers: { RateLimit: '1;r=1;t=2, "minute";r=1;t=2, "hour";r=1;t=2, "day";r=1;t=2', 'RateLimit-Policy': policy(3) } }], 0, 10), [CHECK.syntax, CHECK.windows]],
  ['a missing day window', () => monitor().observeBatch([{ status: 200, body: '', headers: { RateLimit: '"minute";r=1;t=2, "hour";r=1;t=2', 'RateLimit-Policy': policy(3) } }], 0, 10), [CHECK.windows]],
];

test('window names written as Tokens fail nothing (the spec names the windows, not the item type)', () => {
  const tokens = { status: 200, body: '', headers: { RateLimit: 'minute;r=1;t=2, hour;r=1;t=2, day;r=1;t=2', 'RateLimit-Policy': 'minute;q=3;w=60, hour;q=9;w=3600, day;q=9;w=86400' } };
  assert.deepEqual(failures(monitor().observeBatch([tokens], 0, 10)), []);
});

for (const [what, observe, expected] of broken) {
  test(`${what} fails exactly: ${expected.join('; ')}`, () => {
    assert.deepEqual(failures(observe()), [...expected].sort());
  });
}

test('with a shared account, refusals are not counted exactly (others spend the quota)', () => {
  const outcomes = monitor(false).observeBatch([ok200(2), ok200(1), no429()], 0, 10);
  assert.ok(!names(outcomes).has(CHECK.exact));
  assert.deepEqual(failures(outcomes), []);
});

test('a batch too long to place in one window instance is not compared, never guessed', () => {
  const m = createMonitor({ ownAccount: true });
  // 20 s of the target's time: more than a quarter of the minute window.
  // The repeated minute r goes unjudged (it cannot be placed); the hour window, far longer, still is.
  const outcomes = m.observeBatch([ok200(1), ok200(1), no429()], 0, 20_000);
  assert.deepEqual(failures(outcomes), []);
  assert.ok(outcomes.some((o) => o.name === CHECK.rDistinct && o.ok));
});

test('the header reader finds both headers under any capitalisation and flags non-Integer parameters', () => {
  const a = readRateLimit({ ratelimit: '"minute";r=1;t=2, "hour";r=3;t=4, "day";r=5;t=6', 'RATELIMIT-POLICY': policy(9) });
  assert.deepEqual(a.limit.hour, { r: 3, t: 4 });
  assert.deepEqual(a.policy.minute, { q: 9, w: 60 });
  assert.deepEqual(a.problems, []);
  const b = readRateLimit({ RateLimit: '"minute";r=1.0;t=2, "hour";r=3;t=4, "day";r=5;t=6', 'RateLimit-Policy': policy(9) });
  assert.deepEqual(problemMessages(b, ['absent', 'syntax']), ['RateLimit "minute" parameter r=1.0 is a Decimal, not an Integer']);
  assert.deepEqual(problemMessages(readRateLimit({}), ['absent', 'syntax']), ['RateLimit is absent', 'RateLimit-Policy is absent']);
});

test('answers that carry their own arrival time are placed one by one, however long the batch', () => {
  const m = createMonitor({ ownAccount: true });
  const at = (o: Observed, atMs: number): Observed => ({ ...o, atMs });
  // A batch spanning 500 s of the target's time, but each answer says when it arrived.
  const outcomes = m.observeBatch([at(ok200(1), 100_000), at(ok200(1), 110_000), at(ok200(0), 115_000), at(no429(), 120_000)], 0, 500_000);
  assert.deepEqual(failures(outcomes), [CHECK.rDistinct]);
});

test('a window that rolls over during a burst starts a new instance, never a miss; what is left is the new window\'s', () => {
  const m = monitor();
  const at = (o: Observed, atMs: number): Observed => ({ ...o, atMs });
  // q=3: the old window admits down to r=1 and resets 1 s later; the new one admits r=2 and r=1.
  const outcomes = m.observeBatch([at(ok200(2, 2), 0), at(ok200(1, 1), 500), at(ok200(2, 60), 1500), at(ok200(1, 60), 1600)], 0, 1700);
  assert.deepEqual(failures(outcomes), []);
  assert.equal(m.remaining('minute'), 1);
  assert.equal(monitor().remaining('minute'), undefined, 'nothing placed yet');
});
