// Pod lifecycle in the emulator: statuses on the virtual clock, runtime, cost, actions, locks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podsHarness, GPU, type PodsHarness } from './pods-harness.js';
import { settle, availableActions, ACTIONS_BY_STATUS, PROVISIONING_MS, STARTING_MS } from '../emulator/pods/lifecycle.js';
import type { PodRecord } from '../emulator/pods/pod-record.js';

let h: PodsHarness;
before(async () => { h = await podsHarness(); });
after(() => h.close());

const record = (over: Partial<PodRecord> = {}): PodRecord => ({
  id: 'pod1', accountId: 'a', name: 'n', image: 'i', args: '', disk: 20, ports: [], env: {}, registry: null, mounts: {}, cloud: 'SECURE',
  dataCenterId: 'US-TX-3', template: null, cudaVersion: null, ssh: false, jupyter: false, hourlyCost: 1, locked: false, globalIp: null, status: 'PROVISIONING', statusSince: 0, createdAt: 0, startedAt: null, ...over,
});

test('settle moves PROVISIONING to STARTING to RUNNING at the stated virtual times, and sets startedAt', () => {
  const cases: [number, string, number | null][] = [
    [PROVISIONING_MS - 1, 'PROVISIONING', null], [PROVISIONING_MS, 'STARTING', null],
    [PROVISIONING_MS + STARTING_MS - 1, 'STARTING', null], [PROVISIONING_MS + STARTING_MS, 'RUNNING', PROVISIONING_MS + STARTING_MS],
    [10 * 60_000, 'RUNNING', PROVISIONING_MS + STARTING_MS],
  ];
  for (const [now, status, startedAt] of cases) {
    const pod = record();
    settle(pod, now);
    assert.equal(pod.status, status, `at ${now} ms`);
    assert.equal(pod.startedAt, startedAt, `startedAt at ${now} ms`);
  }
  const stuck = record();
  settle(stuck, 60_000, true);
  assert.equal(stuck.status, 'STARTING', 'the stuck-in-starting fault keeps the pod STARTING');
});

test('a lock removes stop and restart from the actions, and nothing else', () => {
  for (const status of Object.keys(ACTIONS_BY_STATUS) as PodRecord['status'][]) {
    const locked = availableActions(record({ status, locked: true }));
    assert.deepEqual(locked, ACTIONS_BY_STATUS[status].filter((a) => a !== 'stop' && a !== 'restart'), status);
  }
});

test('over HTTP: runtime only while RUNNING, uptime follows the clock, cost 0.0 once EXITED', async () => {
  const created = await h.call('POST', '/v2/pods', { ...GPU, ports: ['22/tcp', '8888/http'] });
  assert.equal(created.status, 201);
  assert.equal(created.json.status, 'PROVISIONING');
  assert.equal(created.json.runtime, null);
  assert.equal(created.json.startedAt, null);
  assert.ok(created.json.cost > 0);
  const id = created.json.id as string;
  await h.advance(PROVISIONING_MS);
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).json.status, 'STARTING');
  await h.advance(STARTING_MS + 7_000);
  const running = (await h.call('GET', `/v2/pods/${id}`)).json;
  assert.equal(running.status, 'RUNNING');
  assert.equal(running.runtime.uptime, 7);
  assert.equal(running.runtime.gpus.length, 1);
  assert.deepEqual(running.runtime.ports.map((p: { private: number; public: number | null }) => [p.private, p.public === null]), [[22, false], [8888, true]]);
  assert.deepEqual(running.actions, ['stop', 'restart', 'terminate']);
  const stopped = await h.call('POST', `/v2/pods/${id}/action`, { action: 'stop' });
  assert.equal(stopped.status, 200);
  assert.equal(stopped.json.status, 'EXITED');
  assert.equal(stopped.json.cost, 0);
  assert.equal(stopped.json.runtime, null);
  assert.deepEqual(stopped.json.actions, ['start', 'terminate']);
  const invalid = await h.call('POST', `/v2/pods/${id}/action`, { action: 'restart' });
  assert.equal(invalid.status, 409);
  assert.equal(invalid.type, 'application/problem+json');
  const started = await h.call('POST', `/v2/pods/${id}/action`, { action: 'start' });
  assert.equal(started.json.status, 'PROVISIONING');
  const terminated = await h.call('POST', `/v2/pods/${id}/action`, { action: 'terminate' });
  assert.equal(terminated.status, 204);
  const after = (await h.call('GET', `/v2/pods/${id}`)).json;
  assert.equal(after.status, 'TERMINATED');
  assert.equal(after.cost, 0);
  assert.deepEqual(after.actions, []);
  assert.equal((await h.call('PATCH', `/v2/pods/${id}`, { name: 'late' })).status, 409);
});

test('a locked pod refuses stop and restart with 409 and keeps running; terminate still works', async () => {
  const id = (await h.call('POST', '/v2/pods', GPU)).json.id as string;
  await h.advance(PROVISIONING_MS + STARTING_MS);
  assert.equal((await h.call('PATCH', `/v2/pods/${id}`, { locked: true })).json.locked, true);
  const before = (await h.call('GET', `/v2/pods/${id}`)).json;
  for (const action of ['stop', 'restart']) {
    const res = await h.call('POST', `/v2/pods/${id}/action`, { action });
    assert.equal(res.status, 409, action);
    assert.match(res.json.detail, /locked/);
  }
  const after = (await h.call('GET', `/v2/pods/${id}`)).json;
  assert.equal(after.status, 'RUNNING');
  assert.equal(after.startedAt, before.startedAt);
  assert.equal((await h.call('POST', `/v2/pods/${id}/action`, { action: 'terminate' })).status, 204);
});

test('restart goes back through STARTING and resets startedAt', async () => {
  const id = (await h.call('POST', '/v2/pods', GPU)).json.id as string;
  await h.advance(PROVISIONING_MS + STARTING_MS);
  const first = (await h.call('GET', `/v2/pods/${id}`)).json.startedAt;
  assert.equal((await h.call('POST', `/v2/pods/${id}/action`, { action: 'restart' })).json.status, 'STARTING');
  await h.advance(STARTING_MS);
  const again = (await h.call('GET', `/v2/pods/${id}`)).json;
  assert.equal(again.status, 'RUNNING');
  assert.notEqual(again.startedAt, first);
});
