// Bad input and access rules of the serverless surface: every refusal is a clear problem+json answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { endpointsSlice } from '../emulator/state/endpoints.js';
import { templatesSlice } from '../emulator/state/templates.js';
import { harness, statusOf, submit, type Harness, type Reply } from './serverless-support.js';

let h: Harness;
before(async () => { h = await harness(); });
after(() => h.close());

const ep = (op: string): string => `/v2/${h.endpointId}/${op}`;
const bearer = (): string => `Bearer ${h.keys.main}`;

function problem(res: Reply, status: number, detail: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.body!.status, status);
  assert.match(String(res.body!.detail), detail);
  assert.doesNotMatch(res.text, /\n\s+at |\.ts:\d+/, 'no stack trace');
}

const refusals: [string, () => Promise<Reply>, number, RegExp][] = [
  ['/run without a body', () => h.call('POST', ep('run')), 400, /input/],
  ['/run with input not an object', () => h.call('POST', ep('run'), { body: { input: 'text' } }), 400, /input/],
  ['/run with malformed JSON', () => h.call('POST', ep('run'), { raw: '{"input":' }), 400, /not valid JSON/],
  ['/run with text/plain', () => h.call('POST', ep('run'), { raw: 'hi', headers: { 'content-type': 'text/plain' } }), 415, /application\/json/],
  ['/runsync with wait=999', () => h.call('POST', `${ep('runsync')}?wait=999`, { body: { input: {} } }), 400, /wait/],
  ['/runsync with wait=300001', () => h.call('POST', `${ep('runsync')}?wait=300001`, { body: { input: {} } }), 400, /wait/],
  ['/runsync with wait=soon', () => h.call('POST', `${ep('runsync')}?wait=soon`, { body: { input: {} } }), 400, /wait/],
  ['/status with ttl=-1', () => h.call('GET', `${ep('status')}/job-x?ttl=-1`), 400, /ttl/],
  ['/status of an unknown job', () => h.call('GET', `${ep('status')}/no-such-job`), 404, /No job/],
  ['/retry of an unknown job', () => h.call('POST', `${ep('retry')}/no-such-job`), 404, /No job/],
  ['/health of an unknown endpoint', () => h.call('GET', '/v2/no-such-endpoint/health'), 404, /No queue-based endpoint/],
  ['/run with another account\'s key', () => h.call('POST', ep('run'), { auth: h.keys.other, body: { input: {} } }), 404, /No queue-based endpoint/],
  ['/run with a read-only key', () => h.call('POST', ep('run'), { auth: h.keys.readonly, body: { input: {} } }), 403, /write access/],
  ['/purge-queue with a read-only key', () => h.call('POST', ep('purge-queue'), { auth: h.keys.readonly }), 403, /write access/],
  ['/run without a key', () => h.call('POST', ep('run'), { auth: null, body: { input: {} } }), 401, /No API key/],
  ['model runsync with the key without Bearer', () => h.call('POST', '/v2/image-gen-turbo/runsync', { body: { input: { prompt: 'x' } } }), 401, /Bearer/],
  ['model runsync without a prompt', () => h.call('POST', '/v2/image-gen-turbo/runsync', { auth: bearer(), body: { input: { width: 10 } } }), 400, /image-gen-turbo/],
  ['v1 with an empty gpuTypeIds', () => h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: h.templateId, gpuTypeIds: [] } }), 400, /cannot be created/],
  ['v1 with an unknown GPU type', () => h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: h.templateId, gpuTypeIds: ['TPU'] } }), 400, /cannot be created/],
  ['v1 with an unknown template', () => h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: 'tpl-none', gpuTypeIds: ['AMPERE_16'] } }), 400, /cannot be created/],
  ['v1 with workersMin over workersMax', () => h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: h.templateId, gpuTypeIds: ['AMPERE_16'], workersMin: 3, workersMax: 1 } }), 400, /cannot be created/],
  ['v1 with an unknown field', () => h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: h.templateId, gpuTypeIds: ['AMPERE_16'], flavor: 1 } }), 400, /schema/],
  ['v1 with the key without Bearer', () => h.call('POST', '/v1/endpoints', { body: { name: 'x' } }), 401, /Bearer/],
  ['timings with an unknown key', () => h.control('PUT', `/worlds/${h.worldId}/timings`, { warp: 1 }), 400, /Invalid timings/],
  ['timings with a negative cold start', () => h.control('PUT', `/worlds/${h.worldId}/timings`, { coldStartMs: -1 }), 400, /Invalid timings/],
  ['GPU availability naming an unknown type', () => h.control('PUT', `/worlds/${h.worldId}/gpu-availability`, { unavailable: ['TPU'] }), 400, /GPU type ids/],
];
for (const [name, send, status, detail] of refusals) {
  test(`refused with problem+json: ${name}`, async () => problem(await send(), status, detail));
}

test('v1 with no available GPU type answers 400 naming the types', async () => {
  assert.equal((await h.control('PUT', `/worlds/${h.worldId}/gpu-availability`, { unavailable: ['AMPERE_16', 'ADA_24'] })).status, 200);
  problem(await h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: h.templateId, gpuTypeIds: ['AMPERE_16', 'ADA_24'] } }), 400, /None of the GPU types/);
  assert.equal((await h.control('PUT', `/worlds/${h.worldId}/gpu-availability`, { unavailable: [] })).status, 200);
});

test('v1 refuses a template that is not a serverless one', async () => {
  const tpl = h.world.get(templatesSlice).create(h.world.keys.get(h.keys.main)!.accountId, {
    name: 'pod-only', imageName: 'busybox:1', containerDiskInGb: 5, volumeInGb: 0, dockerArgs: '', env: [], ports: '', readme: '', volumeMountPath: '', isServerless: false, containerRegistryAuthId: null,
  });
  problem(await h.call('POST', '/v1/endpoints', { auth: bearer(), body: { name: 'x', templateId: tpl.id, gpuTypeIds: ['AMPERE_16'] } }), 400, /cannot be created/);
});

test('job operations on a load-balancing endpoint answer 404', async () => {
  const lb = h.world.get(endpointsSlice).create(h.world.keys.get(h.keys.main)!.accountId, { ...h.world.get(endpointsSlice).get(h.endpointId)!, type: 'LB', name: 'lb' });
  problem(await h.call('POST', `/v2/${lb.id}/run`, { body: { input: {} } }), 404, /load-balancing/);
});

test('a read-only key may read: status and health answer 200', async () => {
  const id = await submit(h, {});
  assert.equal((await h.call('GET', `${ep('status')}/${id}`, { auth: h.keys.readonly })).status, 200);
  assert.equal((await h.call('GET', ep('health'), { auth: h.keys.readonly })).status, 200);
});

test('an input the handler cannot use fails the job with a conformance-handler error', async () => {
  const id = await submit(h, { sleepMs: 'long', stream: 0 });
  const res = await h.call('GET', `${ep('status')}/${id}`);
  assert.equal(res.body!.status, 'FAILED');
  assert.match(String(res.body!.error), /^conformance handler: sleepMs must be an integer.*stream must be an integer/);
});

test('/stream hands out each item once; a plain job streams its input as one item, with the platform\'s metrics', async () => {
  const streaming = await submit(h, { stream: 3 });
  const first = await h.call('GET', `${ep('stream')}/${streaming}`);
  assert.equal((first.body!.stream as unknown[]).length, 3);
  assert.deepEqual((await h.call('GET', `${ep('stream')}/${streaming}`)).body, { status: 'COMPLETED', stream: [] });
  const plain = await submit(h, { hello: 'world' });
  const items = (await h.call('GET', `${ep('stream')}/${plain}`)).body!.stream as { output: unknown; metrics: Record<string, unknown> }[];
  assert.deepEqual(items.map((i) => i.output), [{ hello: 'world' }]);
  assert.deepEqual([items[0]!.metrics.stream_index, items[0]!.metrics.output_tokens, items[0]!.metrics.scenario], [0, 0, 'stream']);
  assert.deepEqual((await h.call('GET', `${ep('status')}/${plain}`)).body!.output, [{ hello: 'world' }]);
  assert.deepEqual((await h.call('GET', `${ep('stream')}/${plain}`)).body, { status: 'COMPLETED', stream: [] });
});

test('a /run body over 10 MB is refused with 413 before it is read, and creates no job', async () => {
  const before = await statusOf(h, 'x');
  assert.equal(before, 404);
  let sent = 0;
  const chunk = Buffer.alloc(1024 * 1024, 32);
  async function* body() { for (let i = 0; i < 64; i++) { sent += chunk.length; yield chunk; } }
  const res = await request(`${h.emu.url}${ep('run')}`, { method: 'POST', headers: { authorization: h.keys.main, 'content-type': 'application/json' }, body: Readable.from(body()) }).catch((e: Error) => e);
  if (!(res instanceof Error)) {
    assert.equal(res.statusCode, 413);
    await res.body.text();
  }
  assert.ok(sent < 40 * 1024 * 1024, `the emulator read ${sent} bytes of a 64 MiB body`);
  const declared = await h.call('POST', ep('run'), { raw: Buffer.alloc(10 * 1024 * 1024 + 1, 32) });
  problem(declared, 413, /maximum payload/);
});
