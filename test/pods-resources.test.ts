// Catalog, network volumes, account isolation, scopes and the interface description.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podsHarness, GPU, type PodsHarness } from './pods-harness.js';
import { validate } from '../lib/schema-registry.js';

let h: PodsHarness;
before(async () => { h = await podsHarness(); });
after(() => h.close());

test('the catalog lists GPU types (NVIDIA and AMD), CPU flavors and data centers in the live shapes, each also by id', async () => {
  const gpus = (await h.call('GET', '/v2/catalog/gpus')).json.gpus;
  assert.ok(gpus.some((g: { manufacturer: string }) => g.manufacturer === 'NVIDIA') && gpus.some((g: { manufacturer: string }) => g.manufacturer === 'AMD'));
  const live = { gpus: ['id', 'name', 'pool', 'manufacturer', 'memory', 'secure', 'community', 'price', 'maxCount'], cpus: ['id', 'name', 'group', 'vcpu', 'ramGbPerVcpu', 'price'], dataCenters: ['id', 'name', 'region', 'globalNetwork', 'networkVolumeTypes', 'compliance'] };
  for (const [path, schema, member] of [['/v2/catalog/gpus', 'gpu-type', 'gpus'], ['/v2/catalog/cpus', 'cpu-flavor', 'cpus'], ['/v2/catalog/datacenters', 'data-center', 'dataCenters']] as const) {
    const list = (await h.call('GET', path)).json[member] as { id: string }[];
    for (const entry of list) assert.deepEqual(Object.keys(entry), live[member], `${path} ${entry.id}: the live platform's fields`);
    assert.ok(list.length > 0, path);
    for (const entry of list) assert.deepEqual(validate(schema, entry), { valid: true }, `${path} ${entry.id}`);
    const one = await h.call('GET', `${path}/${encodeURIComponent(list[0]!.id)}`);
    assert.deepEqual(one.json, list[0]);
    assert.equal((await h.call('GET', `${path}/nope`)).status, 404);
  }
  const dcs = (await h.call('GET', '/v2/catalog/datacenters')).json.dataCenters as { globalNetwork: boolean }[];
  assert.ok(dcs.some((d) => d.globalNetwork) && dcs.some((d) => !d.globalNetwork));
});

test('network volumes: create 201, read, grow, never shrink, and a mounted one cannot be deleted', async () => {
  const made = await h.call('POST', '/v2/network-volumes', { name: 'data', size: 50, dataCenter: 'EU-RO-1' });
  assert.equal(made.status, 201);
  assert.deepEqual(validate('network-volume', made.json), { valid: true });
  assert.equal(made.json.type, 'STANDARD');
  const id = made.json.id;
  assert.equal((await h.call('PATCH', `/v2/network-volumes/${id}`, { size: 100 })).json.size, 100);
  assert.equal((await h.call('PATCH', `/v2/network-volumes/${id}`, { size: 20 })).status, 400);
  assert.equal((await h.call('POST', '/v2/network-volumes', { name: 'x', size: 10, dataCenter: 'MARS-1' })).status, 400);
  assert.equal((await h.call('POST', '/v2/network-volumes', { name: 'x', size: 5, dataCenter: 'EU-RO-1' })).status, 400);
  const pod = (await h.call('POST', '/v2/pods', { ...GPU, mounts: { network: [{ volumeId: id, path: '/d' }] } })).json.id;
  assert.equal((await h.call('DELETE', `/v2/network-volumes/${id}`)).status, 409);
  assert.equal((await h.call('DELETE', `/v2/pods/${pod}`)).status, 204);
  assert.equal((await h.call('GET', `/v2/pods/${pod}`)).status, 404);
  assert.equal((await h.call('GET', `/v2/network-volumes/${id}`)).status, 200, 'deleting the pod detaches the volume, never deletes it');
  assert.equal((await h.call('DELETE', `/v2/network-volumes/${id}`)).status, 204);
});

test('each world is seeded with two volumes for its main account', async () => {
  const list = (await h.call('GET', '/v2/network-volumes')).json.networkVolumes as { name: string }[];
  assert.deepEqual(list.map((v) => v.name).sort(), ['datasets-eu-se', 'models-us-tx']);
  assert.deepEqual((await h.call('GET', '/v2/network-volumes', undefined, 'other')).json, { networkVolumes: [] });
});

test('another account never sees or touches a pod: 404 everywhere, absent from its list', async () => {
  const id = (await h.call('POST', '/v2/pods', GPU)).json.id;
  for (const [method, path, body] of [['GET', `/v2/pods/${id}`], ['PATCH', `/v2/pods/${id}`, { name: 'x' }], ['POST', `/v2/pods/${id}/action`, { action: 'stop' }], ['DELETE', `/v2/pods/${id}`]] as const) {
    const res = await h.call(method, path, body, 'other');
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.type, 'application/problem+json');
  }
  assert.deepEqual((await h.call('GET', '/v2/pods', undefined, 'other')).json, { pods: [] });
  assert.equal((await h.call('GET', `/v2/pods/${id}`)).json.name, 'unit');
});

test('a read-only key may read but not create, change or act', async () => {
  assert.equal((await h.call('GET', '/v2/pods', undefined, 'readonly')).status, 200);
  assert.equal((await h.call('POST', '/v2/pods', GPU, 'readonly')).status, 403);
  assert.equal((await h.call('POST', '/v2/network-volumes', { name: 'x', size: 10, dataCenter: 'EU-RO-1' }, 'readonly')).status, 403);
});

test('the interface description is served with version 2.0.0 and persistent mounts deprecated', async () => {
  const doc = (await h.call('GET', '/v2/openapi.json')).json;
  assert.equal(doc.info.version, '2.0.0');
  assert.equal(doc.components.schemas.CreatePodRequest.properties.mounts.properties.persistent.deprecated, true);
});

test('every Pod answer of a busy pod validates against the Pod schema', async () => {
  const id = (await h.call('POST', '/v2/pods', { ...GPU, globalNetworking: true, ports: ['22/tcp'] })).json.id;
  for (const ms of [0, 5_000, 10_000, 60_000]) {
    await h.advance(ms);
    const pod = (await h.call('GET', `/v2/pods/${id}`)).json;
    assert.deepEqual(validate('pod', pod), { valid: true }, `${pod.status}: ${JSON.stringify(validate('pod', pod))}`);
  }
});
