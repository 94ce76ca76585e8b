// createPod and updatePod validation in the emulator: statuses, errors[] naming JSON pointers,
// the handler's rules, and the data center the scheduler picks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podsHarness, GPU, AMD, CPU, type PodsHarness } from './pods-harness.js';
import { chooseDataCenter } from '../emulator/pods/schedule.js';
import { Emulator } from '../emulator/app.js';
import { ProblemError } from '../emulator/http/reply.js';

let h: PodsHarness;
let usTx: string;
let euSe: string;
before(async () => {
  h = await podsHarness();
  usTx = (await h.call('POST', '/v2/network-volumes', { name: 'a', size: 10, dataCenter: 'US-TX-3' })).json.id;
  euSe = (await h.call('POST', '/v2/network-volumes', { name: 'b', size: 10, dataCenter: 'EU-SE-1' })).json.id;
});
after(() => h.close());

const createCases: [string, () => Record<string, unknown>, number, RegExp?][] = [
  ['unknown property inside gpu', () => ({ ...GPU, gpu: { id: 'NVIDIA L40S', foo: 1 } }), 400, /^\/gpu\/foo: unknown property "foo" is not allowed$/],
  ['unknown root property', () => ({ ...GPU, volumeInGb: 1 }), 400, /^\/volumeInGb: /],
  ['both gpu and cpu', () => ({ ...GPU, cpu: CPU.cpu }), 400, /exactly one of the properties "gpu", "cpu"/],
  ['neither gpu nor cpu', () => ({ name: 'x', image: 'y' }), 400, /none is present/],
  ['gpu.count 0', () => ({ ...GPU, gpu: { id: 'NVIDIA L40S', count: 0 } }), 400, /^\/gpu\/count: must be >= 1$/],
  ['gpu.count above the catalog maximum', () => ({ ...GPU, gpu: { id: 'NVIDIA L40S', count: 9 } }), 400, /^\/gpu\/count: at most 8/],
  ['unknown GPU type', () => ({ ...GPU, gpu: { id: 'NVIDIA Nope' } }), 400, /^\/gpu\/id: unknown GPU type/],
  ['vcpuCount 6', () => ({ ...CPU, cpu: { id: 'cpu3c', vcpuCount: 6 } }), 400, /^\/cpu\/vcpuCount: must be equal to one of/],
  ['vcpuCount beyond the flavor', () => ({ ...CPU, cpu: { id: 'cpu3m', vcpuCount: 32 } }), 400, /^\/cpu\/vcpuCount: flavor cpu3m offers 2 to 16/],
  ['vcpuCount below the flavor', () => ({ ...CPU, cpu: { id: 'cpu5g', vcpuCount: 2 } }), 400, /offers 4 to 64/],
  ['cpu.memory', () => ({ ...CPU, cpu: { ...CPU.cpu, memory: 8 } }), 400, /^\/cpu\/memory: unknown property/],
  ['persistent on CPU', () => ({ ...CPU, mounts: { persistent: { size: 10, path: '/w' } } }), 400, /^\/mounts\/persistent: .*"cpu" is present/],
  ['both mount kinds', () => ({ ...GPU, mounts: { persistent: { size: 10, path: '/w' }, network: [{ volumeId: usTx, path: '/d' }] } }), 400, /mutually exclusive/],
  ['persistent size 9', () => ({ ...GPU, mounts: { persistent: { size: 9, path: '/w' } } }), 400, /size: must be >= 10/],
  ['incomplete persistent', () => ({ ...GPU, mounts: { persistent: { size: 10 } } }), 422, /^\/mounts\/persistent\/path: must have required property "path"$/],
  ['incomplete network', () => ({ ...GPU, mounts: { network: [{ path: '/d' }] } }), 422, /volumeId/],
  ['incomplete and another violation', () => ({ ...GPU, disk: 0, mounts: { network: [{ path: '/d' }] } }), 400],
  ['unknown volume', () => ({ ...GPU, mounts: { network: [{ volumeId: 'vol-nope', path: '/d' }] } }), 400, /no network volume "vol-nope"/],
  ['volume outside the preferred data centers', () => ({ ...GPU, dataCenterIds: ['US-TX-3'], mounts: { network: [{ volumeId: euSe, path: '/d' }] } }), 400, /is in EU-SE-1/],
  ['global networking on AMD', () => ({ ...AMD, globalNetworking: true }), 400, /NVIDIA/],
  ['global networking on CPU', () => ({ ...CPU, globalNetworking: true }), 400, /CPU pods/],
  ['global networking without an eligible data center', () => ({ ...GPU, globalNetworking: true, dataCenterIds: ['US-KS-2'] }), 400, /globalNetwork/],
  ['global networking with a volume in a plain data center', () => ({ ...GPU, globalNetworking: true, mounts: { network: [{ volumeId: euSe, path: '/d' }] } }), 400, /globalNetwork/],
  ['unknown data center', () => ({ ...GPU, dataCenterIds: ['MARS-1'] }), 400, /^\/dataCenterIds\/0: unknown data center/],
];

for (const [title, body, status, error] of createCases) {
  test(`createPod with ${title} answers ${status} problem+json${error ? ' naming the pointer' : ''}`, async () => {
    const res = await h.call('POST', '/v2/pods', body());
    assert.equal(res.status, status, JSON.stringify(res.json));
    assert.equal(res.type, 'application/problem+json');
    assert.equal(res.json.status, status);
    if (error) assert.ok(res.json.errors.some((e: string) => error.test(e)), `errors: ${JSON.stringify(res.json.errors)}`);
  });
}

test('createPod without a body answers 400', async () => {
  assert.equal((await h.call('POST', '/v2/pods')).status, 400);
});

test('a network volume places the pod in its data center; globalNetworking picks an eligible one', async () => {
  const mounted = await h.call('POST', '/v2/pods', { ...CPU, mounts: { network: [{ volumeId: euSe, path: '/d' }] } });
  assert.equal(mounted.json.dataCenterId, 'EU-SE-1');
  for (let i = 0; i < 5; i++) {
    const gn = await h.call('POST', '/v2/pods', { ...GPU, globalNetworking: true });
    assert.ok(['US-TX-3', 'US-GA-1', 'EU-RO-1', 'EUR-IS-1'].includes(gn.json.dataCenterId), gn.json.dataCenterId);
    assert.equal(gn.json.globalNetworking.internalDns, `${gn.json.id}.runpod.internal`);
  }
});

test('chooseDataCenter honours the first preferred data center that satisfies every constraint', () => {
  const world = new Emulator().createWorld();
  assert.equal(chooseDataCenter(world, { preferred: ['US-KS-2', 'US-TX-3'], globalNetwork: false, podId: 'p' }), 'US-KS-2');
  assert.equal(chooseDataCenter(world, { preferred: ['US-KS-2', 'US-TX-3'], globalNetwork: true, podId: 'p' }), 'US-TX-3');
  assert.equal(chooseDataCenter(world, { preferred: [], volumeDataCenter: { volumeId: 'v', dataCenter: 'CA-MTL-1' }, globalNetwork: false, podId: 'p' }), 'CA-MTL-1');
  assert.throws(() => chooseDataCenter(world, { preferred: ['US-KS-2'], globalNetwork: true, podId: 'p' }), ProblemError);
});

test('PATCH follows the spec\'s mount semantics', async () => {
  const net = (await h.call('POST', '/v2/pods', { ...GPU, mounts: { network: [{ volumeId: usTx, path: '/d' }] } })).json.id;
  const bare = (await h.call('POST', '/v2/pods', GPU)).json.id;
  const patches: [string, string, unknown, number][] = [
    ['omitted', net, { name: 'renamed' }, 200], ['{}', net, { mounts: {} }, 200], ['network: []', net, { mounts: { network: [] } }, 400],
    ['persistent on a network pod', net, { mounts: { persistent: { size: 10, path: '/w' } } }, 400],
    ['another volumeId', net, { mounts: { network: [{ volumeId: euSe, path: '/d' }] } }, 400],
    ['incomplete', net, { mounts: { network: [{ volumeId: usTx }] } }, 422],
    ['a mount on a bare pod', bare, { mounts: { network: [{ volumeId: usTx, path: '/d' }] } }, 400],
    ['unknown property', net, { colour: 'blue' }, 400],
    ['a new path', net, { mounts: { network: [{ volumeId: usTx, path: '/moved' }] } }, 200],
  ];
  for (const [title, id, body, status] of patches) {
    const res = await h.call('PATCH', `/v2/pods/${id}`, body);
    assert.equal(res.status, status, `${title}: ${JSON.stringify(res.json)}`);
  }
  assert.deepEqual((await h.call('GET', `/v2/pods/${net}`)).json.mounts, { network: [{ volumeId: usTx, path: '/moved' }] });
  assert.deepEqual((await h.call('GET', `/v2/pods/${bare}`)).json.mounts, {});
});
