// The platform's official JavaScript SDK (npm `runpod-sdk`) against the emulator: the real
// client's calls, polling and parsing are the proof that the job operations are wire-compatible.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import runpodSdk from 'runpod-sdk';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';

let emu: RunningEmulator;
let worldId: string;
let endpoint: NonNullable<ReturnType<ReturnType<typeof runpodSdk>['endpoint']>>;

async function control(method: 'POST' | 'PUT', path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${emu.url}/__emulator${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.body.json()) as Record<string, unknown>;
  assert.ok(res.statusCode < 300, JSON.stringify(json));
  return json;
}

// The SDK prints progress lines while it polls; keep the test output readable.
const quiet = console.log;
before(async () => {
  console.log = () => undefined;
  emu = await startEmulator({ port: 0 });
  // The SDK polls in real time, so this world's clock runs by itself: 100 virtual ms per real ms.
  const world = await control('POST', '/worlds', { clock: { mode: 'auto', scale: 100 }, quotas: { minute: 1_000_000 } });
  worldId = world.id as string;
  const sdk = runpodSdk((world.keys as { main: string }).main, { baseUrl: `${emu.url}/v2` });
  endpoint = sdk.endpoint((world.seeded as { CPC_ENDPOINT_ID: string }).CPC_ENDPOINT_ID)!;
});
after(async () => {
  console.log = quiet;
  await emu.close();
});

test('run answers {id, status: IN_QUEUE}; status follows the job to COMPLETED with its output', async () => {
  const run = await endpoint.run({ input: { echo: 'sdk', sleepMs: 2_000 } });
  assert.equal(run.status, 'IN_QUEUE');
  assert.match(run.id, /^job-/);
  let status = await endpoint.status(run.id);
  for (let i = 0; i < 200 && status.status !== 'COMPLETED'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    status = await endpoint.status(run.id);
  }
  assert.equal(status.status, 'COMPLETED');
  assert.deepEqual((status as { output?: unknown }).output, [{ echo: 'sdk', sleepMs: 2_000 }]);
  assert.equal((status as { succeeded?: boolean }).succeeded, true);
});

test('runSync of a quick job answers the COMPLETED job with a sync id and times', async () => {
  const res = (await endpoint.runSync({ input: { n: 1 } })) as Record<string, unknown>;
  assert.equal(res.status, 'COMPLETED');
  assert.match(String(res.id), /^sync-/);
  assert.deepEqual(res.output, [{ n: 1 }]);
  assert.equal(typeof res.delayTime, 'number');
  assert.equal(typeof res.executionTime, 'number');
  assert.equal(res.succeeded, true);
});

test('runSync of a slow job goes on with status-sync until the job completes', async () => {
  // timeout 1000 makes the SDK send wait=1000; the 20 s (virtual) job outlasts it, so the SDK long-polls status-sync.
  const res = (await endpoint.runSync({ input: { sleepMs: 20_000, tag: 'slow' } }, 1_000)) as Record<string, unknown>;
  assert.equal(res.completed, true, JSON.stringify(res));
  assert.equal(res.status, 'COMPLETED');
  assert.deepEqual(res.output, [{ sleepMs: 20_000, tag: 'slow' }]);
  assert.ok((res.executionTime as number) >= 20_000, `executionTime ${String(res.executionTime)}`);
});

test('stream yields every text-generation item once, in order', async () => {
  const run = await endpoint.run({ input: { stream: 5, chunkMs: 500, prompt: 'five' } });
  const items: { output: { text: string[] }; metrics: { stream_index: number } }[] = [];
  for await (const item of endpoint.stream(run.id)) items.push(item as (typeof items)[number]);
  assert.deepEqual(items.map((i) => i.metrics.stream_index), [0, 1, 2, 3, 4]);
  assert.deepEqual(items.map((i) => i.output.text[0]), ['token-0 ', 'token-1 ', 'token-2 ', 'token-3 ', 'token-4 ']);
});

test('cancel stops a running job: {id, status: CANCELLED}, and status stays CANCELLED', async () => {
  const run = await endpoint.run({ input: { sleepMs: 3_600_000 } });
  const res = await endpoint.cancel(run.id);
  assert.equal(res.id, run.id);
  assert.equal(res.status, 'CANCELLED');
  assert.equal((await endpoint.status(run.id)).status, 'CANCELLED');
});

test('health answers the job and worker counters', async () => {
  const res = await endpoint.health();
  for (const k of ['completed', 'failed', 'inProgress', 'inQueue', 'retried'] as const) assert.equal(typeof res.jobs[k], 'number', k);
  assert.equal(typeof res.workers.idle, 'number');
  assert.equal(typeof res.workers.running, 'number');
  assert.ok(res.jobs.completed >= 1);
});

test('purgeQueue removes the waiting jobs: {removed, status: "completed"}', async () => {
  // A one-hour cold start, and more jobs than the endpoint's 3 workers, keep jobs waiting.
  await control('PUT', `/worlds/${worldId}/timings`, { coldStartMs: 3_600_000 });
  for (let i = 0; i < 6; i++) await endpoint.run({ input: { sleepMs: 3_600_000, i } });
  const before = await endpoint.health();
  assert.ok(before.jobs.inQueue >= 3, `only ${before.jobs.inQueue} jobs wait`);
  const res = await endpoint.purgeQueue();
  assert.deepEqual(res, { removed: before.jobs.inQueue, status: 'completed' });
  const after = await endpoint.health();
  assert.equal(after.jobs.inQueue, 0);
  assert.equal(after.jobs.inProgress, before.jobs.inProgress, 'running jobs go on');
});
