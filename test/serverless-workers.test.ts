// Workers, queue and retention of the emulator's serverless surface, in-process on a real port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointsSlice } from '../emulator/state/endpoints.js';
import { templatesSlice } from '../emulator/state/templates.js';
import { jobsSlice } from '../emulator/serverless/store.js';
import { eventually, harness, health, statusOf, submit, type Harness } from './serverless-support.js';

async function endpoint(h: Harness, fields: Record<string, unknown>): Promise<string> {
  const res = await h.call('POST', '/v1/endpoints', { auth: `Bearer ${h.keys.main}`, body: { name: 'w', templateId: h.templateId, gpuTypeIds: ['AMPERE_16'], ...fields } });
  assert.equal(res.status, 200, res.text); // platform-notes: POST /v1/endpoints answers 200
  return res.body!.id as string;
}

test('workers start up to workersMax; the rest of the jobs wait and run first in, first out', async () => {
  const h = await harness();
  try {
    await h.control('PUT', `/worlds/${h.worldId}/timings`, { coldStartMs: 1_000 });
    const ep = await endpoint(h, { workersMax: 2 });
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await submit(h, { sleepMs: 10_000, i }, ep));
    assert.deepEqual((await health(h, ep)).workers.initializing, 2);
    assert.equal((await health(h, ep)).jobs.inQueue, 4);
    await h.advance(1_000);
    assert.deepEqual(await Promise.all(ids.map((id) => statusOf(h, id, ep))), ['IN_PROGRESS', 'IN_PROGRESS', 'IN_QUEUE', 'IN_QUEUE']);
    await h.advance(10_000);
    assert.deepEqual(await Promise.all(ids.map((id) => statusOf(h, id, ep))), ['COMPLETED', 'COMPLETED', 'IN_PROGRESS', 'IN_PROGRESS']);
    const done = await h.call('GET', `/v2/${ep}/status/${ids[0]}`);
    assert.equal(done.body!.delayTime, 1_000, 'delayTime counts the cold start');
    assert.equal(done.body!.executionTime, 10_000);
  } finally { await h.close(); }
});

test('workersMin workers start with the endpoint; idle workers beyond it stop after idleTimeout', async () => {
  const h = await harness();
  try {
    await h.control('PUT', `/worlds/${h.worldId}/timings`, { coldStartMs: 500 });
    const ep = await endpoint(h, { workersMin: 1, workersMax: 3, idleTimeout: 5 });
    assert.equal((await health(h, ep)).workers.initializing, 1);
    await h.advance(500);
    // t=500: the warm worker takes job 1 (idle again at 1500); two new workers take jobs 2 and 3 (idle at 2000).
    for (let i = 0; i < 3; i++) await submit(h, { sleepMs: 1_000 }, ep);
    await h.advance(1_500);
    assert.equal((await health(h, ep)).workers.idle, 3);
    await h.advance(4_499);
    assert.equal((await health(h, ep)).workers.idle, 3, 'not before idleTimeout');
    await h.advance(1);
    assert.equal((await health(h, ep)).workers.idle, 2, 'the first idle worker stops 5 s after its job');
    await h.advance(500);
    assert.deepEqual((await health(h, ep)).workers, { idle: 1, running: 0, initializing: 0, throttled: 0, unhealthy: 0 }, 'workersMin stays warm');
  } finally { await h.close(); }
});

test('changing the GPU type restarts workers: idle ones at once, a busy one after its job', async () => {
  const h = await harness();
  try {
    await h.control('PUT', `/worlds/${h.worldId}/timings`, { coldStartMs: 1_000 });
    const ep = await endpoint(h, { workersMin: 2, workersMax: 2 });
    await h.advance(1_000);
    const running = await submit(h, { sleepMs: 5_000 }, ep);
    const store = h.world.get(jobsSlice);
    const record = h.world.get(endpointsSlice).get(ep)!;
    const before = store.runtimeOf(record)!.workerIds();
    h.world.get(endpointsSlice).update(ep, { gpuIds: 'AMPERE_24' });
    assert.deepEqual((await health(h, ep)).workers, { idle: 0, running: 1, initializing: 1, throttled: 0, unhealthy: 0 });
    await h.advance(5_000);
    assert.equal(await statusOf(h, running, ep), 'COMPLETED', 'the busy worker finished its job');
    await h.advance(1_000);
    const after = store.runtimeOf(h.world.get(endpointsSlice).get(ep)!)!.workerIds();
    assert.equal(after.length, 2);
    assert.ok(after.every((id) => !before.includes(id)), `workers ${before.join(',')} were all replaced, now ${after.join(',')}`);
  } finally { await h.close(); }
});

test('a job starting counts as a use of the endpoint template; GraphQL shows the workers as pods', async () => {
  const h = await harness();
  try {
    await h.advance(10_000);
    await submit(h, { sleepMs: 1_000 });
    assert.equal(h.world.get(templatesSlice).get(h.templateId)!.lastUsedAt, h.world.clock.now());
    const gql = await h.call('POST', '/graphql', { auth: `Bearer ${h.keys.main}`, body: { query: '{ myself { endpoints { id pods { desiredStatus } } } }' } });
    const mine = (gql.body as { data: { myself: { endpoints: { id: string; pods: unknown[] }[] } } }).data.myself.endpoints.find((e) => e.id === h.endpointId);
    assert.deepEqual(mine?.pods, [{ desiredStatus: 'RUNNING' }]);
  } finally { await h.close(); }
});

test('results leave memory when retention ends: 1 minute for /runsync, 30 minutes for /run', async () => {
  const h = await harness();
  try {
    const store = h.world.get(jobsSlice);
    for (let i = 0; i < 50; i++) await submit(h, { i });
    for (let i = 0; i < 50; i++) assert.equal((await h.call('POST', `/v2/${h.endpointId}/runsync`, { body: { input: { i } } })).status, 200);
    assert.equal(store.size, 100);
    await h.advance(60_000);
    assert.equal(store.size, 50, 'the /runsync results are gone after 1 minute');
    await h.advance(30 * 60_000);
    assert.equal(store.size, 0, 'the /run results are gone after 30 minutes');
  } finally { await h.close(); }
});

test('a /runsync waiting on virtual time answers when its world is deleted, instead of hanging', async () => {
  const h = await harness();
  try {
    const pending = h.call('POST', `/v2/${h.endpointId}/runsync`, { body: { input: { sleepMs: 60_000 } } });
    await eventually(async () => ((await health(h)).jobs.inProgress ?? 0) > 0, 'the job is in progress');
    assert.equal((await h.control('DELETE', `/worlds/${h.worldId}`)).status, 204);
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.body!.status, 'IN_PROGRESS');
  } finally { await h.close(); }
});

test('a wait answers the job as it stood when the wait ended, even when one clock step also passes the job\'s end', async () => {
  // One step past both the wait's end and the job's, as an auto clock takes after a busy machine's late turn.
  const h = await harness();
  try {
    const pending = h.call('POST', `/v2/${h.endpointId}/runsync?wait=1000`, { body: { input: { sleepMs: 61_000 } } });
    await eventually(async () => ((await health(h)).jobs.inProgress ?? 0) > 0, 'the job is in progress');
    await h.advance(120_000);
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.body!.status, 'IN_PROGRESS', 'the job ended 60 s after the wait did');
    const id = await submit(h, { sleepMs: 61_000 });
    await eventually(async () => await statusOf(h, id) === 'IN_PROGRESS', 'the submitted job is IN_PROGRESS');
    const timers = h.world.clock.pending();
    const polled = h.call('GET', `/v2/${h.endpointId}/status-sync/${id}?wait=1000`);
    // The poll is waiting once its timer is set (nothing else moves on a manual clock).
    await eventually(() => h.world.clock.pending() !== timers, 'the /status-sync wait set its timer');
    await h.advance(120_000);
    assert.equal((await polled).body!.status, 'IN_PROGRESS', '/status-sync alike');
  } finally { await h.close(); }
});
