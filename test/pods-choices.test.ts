// The emulator's own answers where the spec says "not shown" (emulator/pods/CHOICES.md). The
// conformance suite only records these (OBSERVED rules) and must not fail a target on them;
// these tests hold the emulator to the choices it documents, so a regression there (a 500, a
// lost pod) is caught even though no MUST rule of the spec can see it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podsHarness, GPU, CPU, type PodsHarness } from './pods-harness.js';
import { PROVISIONING_MS, STARTING_MS } from '../emulator/pods/lifecycle.js';

let h: PodsHarness;
before(async () => { h = await podsHarness(); });
after(() => h.close());

async function runningPod(body: object = GPU): Promise<string> {
  const id = (await h.call('POST', '/v2/pods', body)).json.id as string;
  await h.advance(PROVISIONING_MS + STARTING_MS);
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).json.status, 'RUNNING');
  return id;
}

test('CHOICES #25: a TERMINATED pod stays readable and listed with cost 0.0 and no actions, PATCH answers 409, DELETE removes it', async () => {
  const id = await runningPod();
  assert.equal((await h.call('POST', `/v2/pods/${id}/action`, { action: 'terminate' })).status, 204);
  const got = await h.call('GET', `/v2/pods/${id}`);
  assert.equal(got.status, 200);
  assert.equal(got.json.status, 'TERMINATED');
  assert.deepEqual(got.json.actions, []);
  assert.equal(got.json.cost, 0);
  assert.equal(got.json.runtime, null);
  const listed = await h.call('GET', '/v2/pods');
  assert.equal(listed.status, 200);
  assert.equal(listed.json.pods.find((p: { id: string }) => p.id === id)?.status, 'TERMINATED');
  const patched = await h.call('PATCH', `/v2/pods/${id}`, { name: 'again' });
  assert.equal(patched.status, 409);
  assert.match(patched.type, /application\/problem\+json/);
  const acted = await h.call('POST', `/v2/pods/${id}/action`, { action: 'start' });
  assert.equal(acted.status, 409, 'a TERMINATED pod lists no actions, so none is accepted');
  assert.equal((await h.call('DELETE', `/v2/pods/${id}`)).status, 204);
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).status, 404);
});

test('CHOICES #22: stop gives EXITED, start goes back through PROVISIONING and STARTING to RUNNING', async () => {
  const id = await runningPod();
  const stopped = await h.call('POST', `/v2/pods/${id}/action`, { action: 'stop' });
  assert.equal(stopped.status, 200);
  assert.equal(stopped.json.status, 'EXITED');
  assert.deepEqual(stopped.json.actions, ['start', 'terminate']);
  const started = await h.call('POST', `/v2/pods/${id}/action`, { action: 'start' });
  assert.equal(started.status, 200);
  assert.equal(started.json.status, 'PROVISIONING');
  await h.advance(PROVISIONING_MS);
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).json.status, 'STARTING');
  await h.advance(STARTING_MS);
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).json.status, 'RUNNING');
});

test('CHOICES #21: an action the status does not list answers 409 and changes nothing', async () => {
  const id = (await h.call('POST', '/v2/pods', GPU)).json.id as string;
  for (const action of ['start', 'restart']) {
    const res = await h.call('POST', `/v2/pods/${id}/action`, { action });
    assert.equal(res.status, 409, action);
    assert.match(res.json.detail, /not valid for a PROVISIONING pod/);
  }
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).json.status, 'PROVISIONING');
});

test('CHOICES #11: a GPU id outside the catalog, or more GPUs than the type fits, answers 400 at its pointer and creates nothing', async () => {
  const before = (await h.call('GET', '/v2/pods')).json.pods.length as number;
  const unknown = await h.call('POST', '/v2/pods', { ...GPU, gpu: { id: 'NVIDIA Imaginary 9000' } });
  assert.equal(unknown.status, 400);
  assert.ok(unknown.json.errors.some((e: string) => e.startsWith('/gpu/id:')), JSON.stringify(unknown.json.errors));
  const tooMany = await h.call('POST', '/v2/pods', { ...GPU, gpu: { id: GPU.gpu.id, count: 9 } });
  assert.equal(tooMany.status, 400);
  assert.ok(tooMany.json.errors.some((e: string) => e.startsWith('/gpu/count:')), JSON.stringify(tooMany.json.errors));
  assert.equal((await h.call('GET', '/v2/pods')).json.pods.length, before);
});

test('CHOICES #30: PATCH globalNetworking true on a CPU pod answers 400 and leaves the pod without it', async () => {
  const id = (await h.call('POST', '/v2/pods', CPU)).json.id as string;
  const res = await h.call('PATCH', `/v2/pods/${id}`, { globalNetworking: true });
  assert.equal(res.status, 400);
  assert.match(res.type, /application\/problem\+json/);
  const after = (await h.call('GET', `/v2/pods/${id}`)).json;
  assert.deepEqual(after.globalNetworking, { enabled: false });
});
