// The emulator's worker side, spoken as the official worker library speaks it (platform notes,
// "How a worker talks to the platform"): a world whose endpoints outside workers serve.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { harness, health, statusOf, submit, type Harness, type Reply } from './serverless-support.js';

let h: Harness;
// A manual clock: the execution timeouts here move only when the test says.
before(async () => { h = await harness({ outsideWorkers: true, clock: { mode: 'manual' } }); });
after(() => h.close());

const ep = (op: string): string => `/v2/${h.endpointId}/${op}`;
/** A worker request as the library sends it: the key with no scheme, results as "form" bodies that are JSON. */
const worker = {
  take: (id: string, inProgress = 0): Promise<Reply> => h.call('GET', `${ep(`job-take/${id}`)}?gpu=AMPERE_16&job_in_progress=${inProgress}`),
  takeBatch: (id: string, n: number): Promise<Reply> => h.call('GET', `${ep(`job-take-batch/${id}`)}?gpu=AMPERE_16&batch_size=${n}&job_in_progress=0`),
  post: (route: 'job-done' | 'job-stream', id: string, jobId: string, body: unknown, isStream = false): Promise<Reply> =>
    h.call('POST', `${ep(`${route}/${id}/${jobId}`)}?gpu=AMPERE_16&isStream=${isStream}`, { raw: JSON.stringify(body), headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  stop: (id: string): Promise<Reply> => h.call('GET', `${ep(`job-stop/${id}`)}?gpu=AMPERE_16`),
};
const job = async (id: string): Promise<Record<string, unknown>> => (await h.call('GET', `${ep('status')}/${id}`)).body!;

test('a job waits IN_QUEUE until a worker takes it, then its result is the job\'s; s3Config reaches the worker', async () => {
  const sent = await h.call('POST', ep('run'), { body: { input: { n: 1 }, s3Config: { bucketName: 'b', accessId: 'a', accessSecret: 's', endpointUrl: 'http://127.0.0.1:1' }, colour: 'blue' } });
  assert.equal(sent.status, 200, sent.text);
  const id = sent.body!.id as string;
  assert.equal(await statusOf(h, id), 'IN_QUEUE', 'no built-in handler runs it');
  const taken = await worker.take('w-a');
  assert.equal(taken.status, 200, taken.text);
  assert.deepEqual(taken.body, { id, input: { n: 1 }, s3Config: { bucketName: 'b', accessId: 'a', accessSecret: 's', endpointUrl: 'http://127.0.0.1:1' } }, 'other keys are not handed on');
  assert.equal(await statusOf(h, id), 'IN_PROGRESS');
  assert.deepEqual((await health(h)).workers.running, 1);
  assert.equal((await worker.post('job-done', 'w-a', id, { output: { n: 1 } })).status, 200);
  assert.deepEqual(await job(id), { ...(await job(id)), status: 'COMPLETED', output: { n: 1 } });
  assert.equal((await health(h)).workers.idle, 1, 'the worker that took and returned a job is idle');
});

test('a waiting job take is answered by the next job; a batch take gets up to batch_size jobs', async () => {
  const pending = worker.take('w-b');
  await new Promise((r) => setTimeout(r, 50));
  const id = await submit(h, { waited: true });
  const taken = await pending;
  assert.equal(taken.status, 200, taken.text);
  assert.equal(taken.body!.id, id);
  await worker.post('job-done', 'w-b', id, { output: 'ok' });
  const ids = [await submit(h, { i: 1 }), await submit(h, { i: 2 }), await submit(h, { i: 3 })];
  const batch = await worker.takeBatch('w-c', 2);
  assert.equal(batch.status, 200, batch.text);
  assert.deepEqual((batch.body as unknown as { id: string }[]).map((j) => j.id), ids.slice(0, 2));
  const rest = await worker.take('w-b', 0);
  assert.equal(rest.body!.id, ids[2]);
  for (const [w, jobId] of [['w-c', ids[0]], ['w-c', ids[1]], ['w-b', ids[2]]] as const) await worker.post('job-done', w, jobId!, { output: jobId });
  assert.deepEqual(await Promise.all(ids.map((i) => statusOf(h, i))), ['COMPLETED', 'COMPLETED', 'COMPLETED']);
});

test('stream items posted get the platform\'s metrics; {error} fails the job after its automatic retry', async () => {
  const id = await submit(h, { stream: 2 });
  await worker.take('w-s');
  const item = { input_tokens: 1, output_tokens: 2, text: ['a '] };
  await worker.post('job-stream', 'w-s', id, { output: item });
  await worker.post('job-stream', 'w-s', id, { output: item });
  const stream = (await h.call('GET', `${ep('stream')}/${id}`)).body!.stream as { output: unknown; metrics: Record<string, unknown> }[];
  assert.equal(stream.length, 2);
  assert.deepEqual(stream.map((s) => [s.output, s.metrics.stream_index, s.metrics.output_tokens, s.metrics.scenario]), [[item, 0, 2, 'stream'], [item, 1, 4, 'stream']]);
  await worker.post('job-done', 'w-s', id, { error: 'boom' }, true);
  assert.equal(await statusOf(h, id), 'IN_QUEUE', 'the automatic retry');
  assert.equal((await worker.take('w-s')).body!.id, id);
  await worker.post('job-done', 'w-s', id, { error: 'boom' }, true);
  const failed = await job(id);
  assert.equal(failed.status, 'FAILED');
  assert.equal(failed.error, 'boom');
});

test('a cancel and an execution timeout reach the worker through job-stop; its late result is discarded', async () => {
  const id = await submit(h, { sleepMs: 60_000 });
  await worker.take('w-x');
  assert.equal((await h.call('POST', `${ep('cancel')}/${id}`)).body!.status, 'CANCELLED');
  const stop = await worker.stop('w-x');
  assert.deepEqual(stop.body, { jobsToStop: [id] });
  const late = await worker.post('job-done', 'w-x', id, { output: 'late' });
  assert.deepEqual(late.body, { accepted: false });
  assert.equal(await statusOf(h, id), 'CANCELLED');

  const timed = (await h.call('POST', ep('run'), { body: { input: { sleepMs: 60_000 }, policy: { executionTimeout: 10_000 } } })).body!.id as string;
  await worker.take('w-x');
  const polling = worker.stop('w-x');
  await h.advance(10_000);
  assert.deepEqual((await polling).body, { jobsToStop: [timed] }, 'a stop poll held open is answered at the timeout');
  assert.equal(await statusOf(h, timed), 'TIMED_OUT');
});

test('bad worker input answers problem+json, never a crash', async () => {
  const cases: [Promise<Reply>, number][] = [
    [h.call('GET', `${ep('job-take/w1')}?job_in_progress=2`), 400],
    [h.call('GET', `${ep('job-take-batch/w1')}?batch_size=0`), 400],
    [h.call('GET', `${ep('job-take/bad%20id')}?x=1`), 400],
    [worker.post('job-done', 'w1', 'no-such-job', { output: 1 }), 404],
    [h.call('POST', `${ep('job-done/w1/x')}?isStream=maybe`, { raw: '{}', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400],
    [h.call('POST', `${ep('job-stream/w1/x')}`, { raw: '[1,', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400],
    [h.call('GET', `${ep('ping/w1')}?job_id=x`, { auth: h.keys.readonly }), 403],
    [h.call('GET', `${ep('ping/w1')}`, { auth: null }), 401],
  ];
  for (const [sent, status] of cases) {
    const res = await sent;
    assert.equal(res.status, status, res.text);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  }
  assert.equal((await h.call('GET', `${ep('ping/w1')}?job_id=&runpod_version=1.12.0`)).status, 200);
});

test('an endpoint run by the built-in handler refuses worker calls with 409', async () => {
  const plain = await harness();
  try {
    const res = await plain.call('GET', `/v2/${plain.endpointId}/job-take/w1?job_in_progress=0`);
    assert.equal(res.status, 409, res.text);
    assert.match(String(res.body!.detail), /--outside-workers/);
  } finally {
    await plain.close();
  }
});

/** A world served by outside workers with one fault on; the test talks to it as a worker would. */
async function withFault(fault: string, check: (f: Harness, post: (route: string, jobId: string, body: unknown) => Promise<Reply>) => Promise<void>): Promise<void> {
  const f = await harness({ outsideWorkers: true, clock: { mode: 'manual' }, faults: [fault] });
  try {
    await check(f, (route, jobId, body) => f.call('POST', `/v2/${f.endpointId}/${route}/w/${jobId}?isStream=true`, { raw: JSON.stringify(body), headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  } finally {
    await f.close();
  }
}
const takeAs = (f: Harness): Promise<Reply> => f.call('GET', `/v2/${f.endpointId}/job-take/w?job_in_progress=0`);

test('the worker-side faults act on outside workers too: an item lost, a result ignored, a stop not sent', async () => {
  await withFault('serverless.worker-stream-item-lost', async (f, post) => {
    const id = await submit(f, { stream: 3 });
    await takeAs(f);
    for (const n of [0, 1, 2]) await post('job-stream', id, { output: { input_tokens: 1, output_tokens: 1, text: [`t${n}`] } });
    const items = (await f.call('GET', `/v2/${f.endpointId}/stream/${id}`)).body!.stream as { output: { text: string[] } }[];
    assert.deepEqual(items.map((i) => i.output.text[0]), ['t0', 't2'], 'the second item is lost');
  });
  await withFault('serverless.worker-done-ignored', async (f, post) => {
    const id = await submit(f, {});
    await takeAs(f);
    await post('job-done', id, { output: [{}] });
    assert.equal(await statusOf(f, id), 'IN_PROGRESS', 'the result is ignored');
    await f.advance(600_000);
    assert.equal(await statusOf(f, id), 'TIMED_OUT', 'until the execution timeout');
  });
  await withFault('serverless.worker-stop-not-sent', async (f, post) => {
    const id = await submit(f, { sleepMs: 60_000 });
    await takeAs(f);
    assert.equal((await f.call('POST', `/v2/${f.endpointId}/cancel/${id}`)).body!.status, 'CANCELLED');
    assert.deepEqual((await post('job-done', id, { output: [{ sleepMs: 60_000 }] })).body, { accepted: true }, 'no stop was sent: the worker ran on, and its result is taken');
    assert.equal(await statusOf(f, id), 'COMPLETED');
  });
});

test('worker requests count against no user\'s rate limit', async () => {
  const f = await harness({ outsideWorkers: true, clock: { mode: 'manual' }, quotas: { minute: 2, hour: 100, day: 1000 } });
  try {
    for (let i = 0; i < 5; i++) assert.equal((await f.call('GET', `/v2/${f.endpointId}/ping/w?runpod_version=1.12.0`)).status, 200);
    const health = [await f.call('GET', `/v2/${f.endpointId}/health`), await f.call('GET', `/v2/${f.endpointId}/health`), await f.call('GET', `/v2/${f.endpointId}/health`)];
    assert.deepEqual(health.map((r) => r.status), [200, 200, 429], 'the client API is metered as before');
  } finally {
    await f.close();
  }
});
