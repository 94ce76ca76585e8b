// REST v1 endpoint creation with the live platform's fields (platform-notes): 200, only
// templateId required, the extra fields checked by their own schema and rules, other names refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { endpointsSlice } from '../emulator/state/endpoints.js';
import { HOST_CUDA_VERSIONS } from '../emulator/pods/cuda.js';
import { volumesSlice } from '../emulator/pods/volumes.js';
import { harness, type Harness } from './serverless-support.js';

let h: Harness;
before(async () => { h = await harness(); });
after(() => h.close());

const create = (body: Record<string, unknown>) => h.call('POST', '/v1/endpoints', { auth: `Bearer ${h.keys.main}`, body });

test('templateId alone creates a GPU endpoint with the live defaults, answered 200', async () => {
  const res = await create({ templateId: h.templateId });
  assert.equal(res.status, 200, res.text);
  const b = res.body!;
  assert.deepEqual([b.computeType, b.gpuCount, b.scalerType, b.scalerValue, b.idleTimeout, b.flashboot], ['GPU', 1, 'QUEUE_DELAY', 4, 5, false]);
  assert.equal(typeof b.allocatedGpuTypeId, 'string', 'a GPU type is allocated from every known one');
  assert.ok(String(b.name).length > 0, "the template's name when none is given");
});

test('every live field is taken and stored', async () => {
  const volume = h.world.get(volumesSlice).create(h.world.keys.get(h.keys.main)!.accountId, { name: 'v1-vol', size: 20, dataCenter: 'US-TX-3', type: 'STANDARD' });
  const res = await create({
    name: 'live', templateId: h.templateId, gpuTypeIds: ['AMPERE_16'], gpuCount: 2, dataCenterIds: ['US-TX-3'], minCudaVersion: '12.4',
    flashboot: true, executionTimeoutMs: 60_000, networkVolumeIds: [volume.id], scalerType: 'REQUEST_COUNT', scalerValue: 2, idleTimeout: 3600,
  });
  assert.equal(res.status, 200, res.text);
  const stored = h.world.get(endpointsSlice).get(res.body!.id as string)!;
  assert.deepEqual([stored.gpuCount, stored.flashBootType, stored.scalerType, stored.scalerValue, stored.networkVolumeId, stored.idleTimeout],
    [2, 'FLASHBOOT', 'REQUEST_COUNT', 2, volume.id, 3600]);
  assert.deepEqual(stored.allowedCudaVersions, HOST_CUDA_VERSIONS.filter((v) => Number(v) >= 12.4), 'a floor becomes the host versions at or above it');
  const cpu = await create({ templateId: h.templateId, computeType: 'CPU', cpuFlavorIds: ['cpu3c'], vcpuCount: 4 });
  assert.equal(cpu.status, 200, cpu.text);
  assert.deepEqual([cpu.body!.computeType, cpu.body!.allocatedGpuTypeId, cpu.body!.gpuTypeIds], ['CPU', null, []]);
});

test('live fields break their rules with 400 naming the field; names that are neither spec nor live are refused', async () => {
  for (const [body, pointer] of [
    [{ gpuCount: 0 }, '/gpuCount'],
    [{ computeType: 'TPU' }, '/computeType'],
    [{ scalerValue: 0 }, '/scalerValue'],
    [{ idleTimeout: 3601 }, '/idleTimeout'],
    [{ computeType: 'CPU' }, '/cpuFlavorIds'],
    [{ computeType: 'CPU', cpuFlavorIds: ['cpu9z'] }, '/cpuFlavorIds/0'],
    [{ computeType: 'CPU', cpuFlavorIds: ['cpu3c'], gpuTypeIds: ['AMPERE_16'] }, '/gpuTypeIds'],
    [{ vcpuCount: 2 }, '/vcpuCount'],
    [{ dataCenterIds: ['MOON-1'] }, '/dataCenterIds/0'],
    [{ networkVolumeId: 'vol-none' }, '/networkVolumeId'],
    [{ allowedCudaVersions: ['12.4'], minCudaVersion: '12.1' }, '/minCudaVersion'],
    [{ gpuTypeIds: [] }, '/gpuTypeIds'],
    [{ name: ' ' }, '/name'],
    [{ regions: ['US'] }, '/regions'],
  ] as const) {
    const res = await create({ templateId: h.templateId, ...body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.ok((res.body!.errors as string[]).some((e) => e.startsWith(`${pointer}:`)), `${JSON.stringify(body)}: ${res.text}`);
  }
  const noTemplate = await create({ name: 'x' });
  assert.equal(noTemplate.status, 400);
});
