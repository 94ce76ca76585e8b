import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiClient } from '../lib/client/api.js';
import { Pacer, pacedTransport, retryAfterMs } from '../lib/client/pacing.js';
import type { HttpRequest, HttpResponse, Transport } from '../lib/client/transport.js';

/** Virtual time: `sleep` moves the clock, so waits are exact and the tests take no real time. */
function clock() {
  let now = 1_000_000;
  return { now: () => now, sleep: async (ms: number) => { now += ms; } };
}

/** A fake target: answers in turn from `script` (the last one repeats), noting when each request came. */
function fakeTarget(script: { status: number; headers: Record<string, string> }[], now: () => number) {
  const seen: { at: number; req: HttpRequest }[] = [];
  const transport: Transport = {
    async send(req) {
      seen.push({ at: now(), req });
      const answer = script[Math.min(seen.length - 1, script.length - 1)]!;
      const res: HttpResponse = { status: answer.status, headers: answer.headers, bytes: new TextEncoder().encode('{}'), durationMs: 1 };
      return res;
    },
  };
  return { transport, seen };
}

const limit = (r: number, t: number) => ({ 'content-type': 'application/json', ratelimit: `"minute";r=${r};t=${t}, "hour";r=2900;t=3000, "day";r=49000;t=80000`, 'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400' });
const urls = { baseUrl: 'http://target.test', serverlessUrl: 'http://target.test', restV1Url: 'http://target.test' };

test('a window with r=0 makes the client wait its t seconds before the next request, then proceed', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 200, headers: limit(0, 2) }, { status: 200, headers: limit(59, 60) }], c.now);
  const transport = pacedTransport(target.transport, new Pacer(c), { budgetMs: 60_000 });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  const start = c.now();
  assert.equal((await api.op('listPods')).status, 200);
  assert.equal((await api.op('listPods')).status, 200);
  assert.equal((await api.op('listPods')).status, 200);
  assert.equal(target.seen[0]!.at, start);
  assert.equal(target.seen[1]!.at - start, 2000, 'the second request waited for the reset (t=2)');
  assert.equal(target.seen[2]!.at - target.seen[1]!.at, 0, 'with r=59 of 60 left, no wait');
  assert.equal(transport.stats.pacedMs, 2000);
});

test('a 429 the client did not ask for is waited out by Retry-After and sent again; the test sees the 200', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 429, headers: { ...limit(0, 7), 'retry-after': '7' } }, { status: 200, headers: limit(59, 60) }], c.now);
  const transport = pacedTransport(target.transport, new Pacer(c), { budgetMs: 60_000 });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  const res = await api.op('listPods');
  assert.equal(res.status, 200);
  assert.equal(target.seen.length, 2);
  assert.ok(target.seen[1]!.at - target.seen[0]!.at >= 7000, 'the retry came after Retry-After');
  assert.equal(transport.stats.retried, 1);
  assert.equal(transport.stats.retryAfterMs, 7000);
});

test('a call that opts out (exhausting a window on purpose) gets its 429 at once; later paced calls wait for the window', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 429, headers: { ...limit(0, 5), 'retry-after': '5' } }, { status: 200, headers: limit(59, 60) }], c.now);
  const transport = pacedTransport(target.transport, new Pacer(c), { budgetMs: 60_000 });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  const limited = await api.op('listPods', { pace: false });
  assert.equal(limited.status, 429, 'the deliberate exhaustion call sees the 429');
  assert.equal(target.seen.length, 1, 'and it was not retried');
  assert.equal(transport.stats.pacedMs + transport.stats.retryAfterMs, 0);
  const next = await api.op('listPods');
  assert.equal(next.status, 200);
  assert.equal(target.seen[1]!.at - target.seen[0]!.at, 5000, 'the next paced call waited out the Retry-After');
});

test('a transport disabled for the test (its own emulator quotas) neither waits nor retries', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 200, headers: limit(0, 30) }, { status: 429, headers: { ...limit(0, 30), 'retry-after': '30' } }], c.now);
  const transport = pacedTransport(target.transport, new Pacer(c), { disabled: () => true });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  await api.op('listPods');
  assert.equal((await api.op('listPods')).status, 429);
  assert.equal(target.seen[1]!.at, target.seen[0]!.at);
});

test('past the time budget the 429 goes back to the test and the give-up is counted', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 429, headers: { ...limit(0, 40), 'retry-after': '40' } }], c.now);
  const transport = pacedTransport(target.transport, new Pacer(c), { budgetMs: 30_000 });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  const res = await api.op('listPods');
  assert.equal(res.status, 429);
  assert.equal(transport.stats.gaveUp, 1);
  assert.equal(target.seen.length, 1);
});

test('a low window is spread over its remaining seconds, each worker taking its share', async () => {
  const c = clock();
  // r=4 left for 10 s, 2 workers: this worker's share is 2, so its requests go 5 s apart.
  const target = fakeTarget([{ status: 200, headers: limit(4, 10) }], c.now);
  const pacer = new Pacer({ ...c, workers: 2 });
  const transport = pacedTransport(target.transport, pacer, { budgetMs: 60_000 });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  await api.op('listPods');
  await api.op('listPods');
  await api.op('listPods');
  const gaps = target.seen.slice(1).map((s, i) => s.at - target.seen[i]!.at);
  assert.equal(gaps[0], 0, 'the first request after the answer goes at once');
  assert.equal(gaps[1], 5000, 'the next one waits 10 s / share 2');
});

test('accounts are paced apart: one key at r=0 does not slow another', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 200, headers: limit(0, 50) }, { status: 200, headers: limit(60, 60) }], c.now);
  const transport = pacedTransport(target.transport, new Pacer(c), { budgetMs: 60_000 });
  const api = new ApiClient(urls, { main: 'k-main-0001', other: 'k-other-0002' }, transport);
  await api.op('listPods');
  await api.op('listPods', { auth: 'other' });
  assert.equal(target.seen[1]!.at, target.seen[0]!.at);
});

test('Retry-After is read as delay-seconds or an HTTP date', () => {
  assert.equal(retryAfterMs('12', 0), 12_000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
  assert.equal(retryAfterMs('soon', 0), undefined);
  assert.equal(retryAfterMs(undefined, 0), undefined);
});

test('every wait is announced first (a test extends its timeout by it)', async () => {
  const c = clock();
  const target = fakeTarget([{ status: 200, headers: limit(0, 3) }, { status: 429, headers: { ...limit(0, 4), 'retry-after': '4' } }, { status: 200, headers: limit(59, 60) }], c.now);
  const waits: number[] = [];
  const transport = pacedTransport(target.transport, new Pacer(c), { budgetMs: 60_000, onWait: (ms) => waits.push(ms) });
  const api = new ApiClient(urls, { main: 'k-main-0001' }, transport);
  await api.op('listPods');
  assert.equal((await api.op('listPods')).status, 200);
  assert.deepEqual(waits, [3000, 4000]);
});
