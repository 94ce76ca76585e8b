// Variants where the spec gives no status, type, timing or order: what each one changes in the
// emulator's answers (the variant matrix then shows the suite accepts it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, health, statusOf, submit, type Harness } from './serverless-support.js';

const GPU_POD = { name: 'variant', image: 'busybox:1.36', gpu: { id: 'NVIDIA GeForce RTX 4090' } };

/** A world with these variants, closed after `body`. */
async function withVariants(variants: string[], body: (h: Harness) => Promise<void>): Promise<void> {
  const h = await harness({ variants });
  try {
    await body(h);
  } finally {
    await h.close();
  }
}

const bearer = (h: Harness): { auth: string } => ({ auth: `Bearer ${h.keys.main}` });

test('serverless.other-2xx: reads answer 203, POSTs 202, with the bodies of 200', () => withVariants(['serverless.other-2xx'], async (h) => {
  assert.equal((await h.call('GET', `/v2/${h.endpointId}/health`)).status, 203);
  const purge = await h.call('POST', `/v2/${h.endpointId}/purge-queue`);
  assert.deepEqual([purge.status, purge.body], [202, { removed: 0, status: 'completed' }]);
  const model = await h.call('POST', '/v2/image-gen-turbo/runsync', { body: { input: { prompt: 'a cube' } }, ...bearer(h) });
  assert.equal(model.status, 202);
  assert.equal(model.body!.status, 'COMPLETED');
}));

test('models.runsync-in-progress: the model answers IN_PROGRESS without output', () => withVariants(['models.runsync-in-progress'], async (h) => {
  const model = await h.call('POST', '/v2/image-gen-turbo/runsync', { body: { input: { prompt: 'a cube' } }, ...bearer(h) });
  assert.equal(model.body!.status, 'IN_PROGRESS');
  assert.equal(model.body!.output, undefined);
}));

test('jobs.failed-shows-output: a FAILED job shows its error and the items it streamed as output, which /retry removes', () => withVariants(['jobs.failed-shows-output'], async (h) => {
  await h.control('PUT', `/worlds/${h.worldId}/timings`, { automaticRetries: 0 });
  // It sleeps a second first, so the retried attempt is still running when /status is read after /retry.
  const id = await submit(h, { sleepMs: 1_000, stream: 2, fail: 'boom' });
  await h.advance(10_000);
  const res = await h.call('GET', `/v2/${h.endpointId}/status/${id}`);
  const output = res.body!.output as { text: string[] }[];
  assert.deepEqual([res.body!.status, res.body!.error, output.map((o) => o.text[0])], ['FAILED', 'boom', ['token-0 ', 'token-1 ']]);
  await h.call('POST', `/v2/${h.endpointId}/retry/${id}`);
  assert.equal((await h.call('GET', `/v2/${h.endpointId}/status/${id}`)).body!.output, undefined);
}));

test('jobs.purged-kept-cancelled: a purged job reads CANCELLED, then goes with its retention', () => withVariants(['jobs.purged-kept-cancelled'], async (h) => {
  await h.control('PUT', `/worlds/${h.worldId}/timings`, { coldStartMs: 60_000 });
  const id = await submit(h, { sleepMs: 1_000 });
  assert.equal((await h.call('POST', `/v2/${h.endpointId}/purge-queue`)).body!.removed, 1);
  assert.equal(await statusOf(h, id), 'CANCELLED');
  await h.advance(31 * 60_000);
  assert.equal(await statusOf(h, id), 404);
}));

test('jobs.health-held-counts: completed counts the jobs held, and falls as their results expire', () => withVariants(['jobs.health-held-counts'], async (h) => {
  await h.call('POST', `/v2/${h.endpointId}/runsync`, { body: { input: { echo: 'x' } } });
  assert.equal((await health(h)).jobs.completed, 1);
  await h.advance(61_000);
  assert.equal((await health(h)).jobs.completed, 0);
}));

test('jobs.dispatch-newest-first: a freed worker takes the newest waiting job', () => withVariants(['jobs.dispatch-newest-first'], async (h) => {
  await submit(h, { sleepMs: 5_000 });
  for (let i = 0; i < 2; i++) await submit(h, { sleepMs: 60_000 });
  const older = await submit(h, { sleepMs: 60_000 });
  const newer = await submit(h, { sleepMs: 60_000 });
  await h.advance(5_000);
  assert.deepEqual([await statusOf(h, older), await statusOf(h, newer)], ['IN_QUEUE', 'IN_PROGRESS']);
}));

test('v1.catalog-gpu-ids: REST v1 takes the catalog\'s GPU type ids and refuses tier codes; the default takes both', async () => {
  const create = (h: Harness, gpuTypeIds: string[]) => h.call('POST', '/v1/endpoints', { body: { templateId: h.templateId, gpuTypeIds, workersMax: 0 }, ...bearer(h) });
  await withVariants(['v1.catalog-gpu-ids'], async (h) => {
    assert.equal((await create(h, ['AMPERE_16'])).status, 400);
    const made = await create(h, ['NVIDIA GeForce RTX 4090']);
    assert.deepEqual([made.status, made.body!.gpuIds], [200, 'ADA_24']);
  });
  await withVariants([], async (h) => {
    assert.deepEqual([(await create(h, ['AMPERE_16'])).status, (await create(h, ['NVIDIA L40S'])).status], [200, 200]);
  });
});

test('graphql.discount-other-types: serverlessDiscount with a String discountFactor and an Int expirationDate', () => withVariants(['graphql.discount-other-types'], async (h) => {
  const res = await h.call('POST', `/graphql?api_key=${h.keys.main}`, { body: { query: '{ myself { serverlessDiscount { discountFactor type expirationDate } } }' }, auth: null });
  const discount = (res.body!.data as { myself: { serverlessDiscount: Record<string, unknown> } }).myself.serverlessDiscount;
  assert.deepEqual([typeof discount.discountFactor, typeof discount.type, typeof discount.expirationDate], ['string', 'string', 'number']);
}));

test('pods: list-203, runtime-sampled, global-address-later and container-exits', () => withVariants(['pods.list-203', 'pods.runtime-sampled', 'pods.global-address-later', 'pods.container-exits'], async (h) => {
  assert.equal((await h.call('GET', '/v2/pods', bearer(h))).status, 203);
  const made = await h.call('POST', '/v2/pods', { body: { ...GPU_POD, globalNetworking: true }, ...bearer(h) });
  const pod = async () => (await h.call('GET', `/v2/pods/${made.body!.id as string}`, bearer(h))).body!;
  await h.advance(20_000);
  const running = await pod();
  assert.equal(running.status, 'RUNNING');
  assert.deepEqual(Object.keys(running.runtime as object), ['gpus'], 'no uptime before the first sample');
  assert.deepEqual(running.globalNetworking, { enabled: false });
  await h.advance(100_000);
  const later = await pod();
  assert.equal((later.runtime as { uptime?: number }).uptime, 60);
  assert.equal((later.globalNetworking as { enabled: boolean; internalDns?: string }).enabled, true);
  assert.equal((later.globalNetworking as { internalDns?: string }).internalDns, undefined);
  await h.advance(10 * 60_000);
  assert.deepEqual([(await pod()).status, (await pod()).runtime], ['EXITED', null]);
}));
