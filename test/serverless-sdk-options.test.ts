// The official JavaScript SDK (npm `runpod-sdk`) with the request fields its type offers beside
// `input` (webhook, policy, s3Config): every call answered as its user expects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import runpodSdk from 'runpod-sdk';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { plainOutput as ECHO } from '../contract/checks/job-conformance.js';
import { webhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

let emu: RunningEmulator;
let hooks: WebhookReceiver;
let endpoint: NonNullable<ReturnType<ReturnType<typeof runpodSdk>['endpoint']>>;

const quiet = console.log;
before(async () => {
  console.log = () => undefined;
  emu = await startEmulator({ port: 0 });
  hooks = await webhookReceiver();
  // The SDK polls in real time: 100 virtual ms per real ms.
  const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clock: { mode: 'auto', scale: 100 }, quotas: { minute: 1_000_000 } }) });
  const world = (await res.body.json()) as { keys: { main: string }; seeded: { CPC_ENDPOINT_ID: string } };
  endpoint = runpodSdk(world.keys.main, { baseUrl: `${emu.url}/v2` }).endpoint(world.seeded.CPC_ENDPOINT_ID)!;
});
after(async () => {
  console.log = quiet;
  hooks.close();
  await emu.close();
});

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

test('runSync with webhook: the COMPLETED job, and the webhook gets its /status body', async () => {
  const res = (await endpoint.runSync({ input: { hook: 'sdk' }, webhook: hooks.url })) as Record<string, unknown>;
  assert.equal(res.status, 'COMPLETED');
  assert.deepEqual(res.output, ECHO({ hook: 'sdk' }));
  await until(() => hooks.bodies.some((b) => b.id === res.id));
  const body = hooks.bodies.find((b) => b.id === res.id);
  assert.ok(body, 'the webhook was called');
  assert.equal(body.status, 'COMPLETED');
  assert.deepEqual(body.output, ECHO({ hook: 'sdk' }));
});

test('run with policy.executionTimeout: the job ends TIMED_OUT at its own timeout', async () => {
  const run = await endpoint.run({ input: { sleepMs: 600_000 }, policy: { executionTimeout: 6_000 } });
  assert.equal(run.status, 'IN_QUEUE');
  let status = await endpoint.status(run.id);
  for (let i = 0; i < 300 && status.status !== 'TIMED_OUT'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    status = await endpoint.status(run.id);
  }
  assert.equal(status.status, 'TIMED_OUT');
});

test('runSync with policy (ttl, lowPriority false) and s3Config: the COMPLETED job', async () => {
  const res = (await endpoint.runSync({
    input: { policy: 'sdk' }, policy: { ttl: 600_000, lowPriority: false, executionTimeout: 60_000 },
    s3Config: { accessId: 'a', accessSecret: 's', bucketName: 'b', endpointUrl: 'http://127.0.0.1:9' },
  })) as Record<string, unknown>;
  assert.equal(res.status, 'COMPLETED');
  assert.deepEqual(res.output, ECHO({ policy: 'sdk' }));
});

test('run with webhook: status follows the job, the webhook is called once it ends', async () => {
  const run = await endpoint.run({ input: { sleepMs: 2_000, tag: 'hooked' }, webhook: hooks.url });
  let status = await endpoint.status(run.id);
  for (let i = 0; i < 300 && status.status !== 'COMPLETED'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    status = await endpoint.status(run.id);
  }
  assert.equal(status.status, 'COMPLETED');
  await until(() => hooks.bodies.some((b) => b.id === run.id));
  assert.equal(hooks.bodies.find((b) => b.id === run.id)?.status, 'COMPLETED');
});
