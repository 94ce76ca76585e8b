// The open job request body (platform notes): webhook, policy and s3Config taken, other keys dropped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { harness, statusOf, type Harness } from './serverless-support.js';
import { deliverable } from '../emulator/serverless/webhook.js';
import { webhookReceiver } from './webhook-receiver.js';

let h: Harness;
before(async () => { h = await harness(); });
after(() => h.close());

const ep = (op: string): string => `/v2/${h.endpointId}/${op}`;
const run = async (body: Record<string, unknown>): Promise<string> => {
  const res = await h.call('POST', ep('run'), { body });
  assert.equal(res.status, 200, res.text);
  return res.body!.id as string;
};

test('/run and /runsync take webhook, policy, s3Config and unknown keys (dropped), not refused', async () => {
  for (const op of ['run', 'runsync']) {
    const res = await h.call('POST', ep(op), { body: { input: { a: 1 }, webhook: 'http://127.0.0.1:9/x', policy: { executionTimeout: 60_000, ttl: 3_600_000, lowPriority: false }, s3Config: { bucketName: 'b' }, colour: 'blue' } });
    assert.equal(res.status, 200, res.text);
  }
});

test('a webhook gets the /status body when the job ends, tried again 10 s apart after failures (3 tries)', async () => {
  const r = await webhookReceiver([500, 503]);
  try {
    const id = await run({ input: { echo: 'hook' }, webhook: r.url });
    await r.arrived(1);
    assert.deepEqual(r.bodies[0], (await h.call('GET', `${ep('status')}/${id}`)).body, 'the body /status answers');
    await h.advance(9_999);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(r.bodies.length, 1, 'no second try before 10 s');
    await h.advance(1);
    await r.arrived(2);
    await h.advance(10_000);
    await r.arrived(3);
    await h.advance(60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(r.bodies.length, 3, 'delivered on the third try, then no more');
  } finally {
    r.close();
  }
});

test('webhooks go to loopback addresses only', () => {
  assert.deepEqual(['http://127.0.0.1:8080/x', 'http://localhost/x', 'https://[::1]:9/x', 'https://example.com/x', 'http://10.0.0.1/x', 'ftp://127.0.0.1/x', 'not a url'].map(deliverable),
    [true, true, true, false, false, false, false]);
});

test('policy.executionTimeout ends this job TIMED_OUT at its own timeout; a value out of the notes\' range is not applied', async () => {
  const own = await run({ input: { sleepMs: 60_000 }, policy: { executionTimeout: 6_000 } });
  const outOfRange = await run({ input: { sleepMs: 60_000 }, policy: { executionTimeout: 5_000 } });
  await h.advance(6_000);
  assert.equal(await statusOf(h, own), 'TIMED_OUT');
  assert.equal(await statusOf(h, outOfRange), 'IN_PROGRESS', '5000 is not "more than 5000": the endpoint\'s timeout applies');
  await h.advance(60_000);
  assert.equal(await statusOf(h, outOfRange), 'COMPLETED');
});

test('policy.ttl bounds the job\'s whole lifespan from submission', async () => {
  const id = await run({ input: { sleepMs: 5_000 }, policy: { ttl: 10_000 } });
  await h.advance(9_000);
  assert.equal(await statusOf(h, id), 'COMPLETED');
  await h.advance(1_000);
  assert.equal(await statusOf(h, id), 404, 'gone 10 s after submission, long before the 30-minute retention');
});

test('policy.lowPriority: the job starts no worker, it waits for one another job starts', async () => {
  const low = await run({ input: {}, policy: { lowPriority: true } });
  await h.advance(60_000);
  assert.equal(await statusOf(h, low), 'IN_QUEUE');
  const normal = await run({ input: { sleepMs: 1_000 } });
  await h.advance(2_000);
  assert.equal(await statusOf(h, normal), 'COMPLETED');
  assert.equal(await statusOf(h, low), 'COMPLETED', 'the worker the other job started took it');
});
