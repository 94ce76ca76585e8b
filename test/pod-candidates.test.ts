// The GPU types a valid create is tried on, and the retry on the next type after a 400
// (platform notes, Capacity: one type per create, a 400 when it has no capacity).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gpuCandidates, onOtherGpuTypes, type PodCatalog } from '../lib/pod-catalog.js';
import type { ApiResult } from '../lib/client/api.js';
import type { CreatePodRequest } from '../lib/types.gen.js';

const gpu = (id: string, manufacturer: string, availability?: string) => ({ id, manufacturer, ...(availability ? { availability } : {}) }) as PodCatalog['gpus'][number];
const catalog: PodCatalog = {
  gpus: [gpu('NVIDIA A', 'NVIDIA', 'LOW'), gpu('AMD X', 'AMD', 'HIGH'), gpu('NVIDIA B', 'NVIDIA', 'HIGH'), gpu('NVIDIA C', 'NVIDIA'), gpu('NVIDIA D', 'NVIDIA', 'NONE')],
  cpus: [], dataCenters: [],
};
const ids = (p: Parameters<typeof gpuCandidates>[1]) => gpuCandidates(catalog, p).list.map((g) => g.id);

test('candidates: the catalog\'s NVIDIA types, available first; gpuType first; gpuTypes exactly as listed', () => {
  assert.deepEqual(ids({}), ['NVIDIA B', 'NVIDIA A', 'NVIDIA C', 'NVIDIA D']);
  assert.deepEqual(ids({ gpuType: 'NVIDIA D' }), ['NVIDIA D', 'NVIDIA B', 'NVIDIA A', 'NVIDIA C']);
  assert.deepEqual(ids({ gpuTypes: ['NVIDIA C', 'AMD X', 'NVIDIA Z'] }), ['NVIDIA C', 'AMD X'], 'unknown ids are never tried');
  assert.deepEqual(ids({ gpuType: 'NVIDIA Z' }), []);
  assert.match(gpuCandidates(catalog, { gpuTypes: ['Z'] }).why, /CPC_GPU_TYPES/);
});

const answer = (status: number, id = ''): ApiResult<{ id: string }> => ({ operation: 'createPod', status, headers: {}, contentType: 'application/json', text: '', body: { id }, bytes: 0, durationMs: 1, evidence: {} as ApiResult['evidence'] });
const body: CreatePodRequest = { name: 'p', image: 'i', gpu: { id: 'NVIDIA B', count: 2 } };

test('a 400 is tried on the other types until one answers otherwise; the body answered keeps its other fields', async () => {
  const sent: string[] = [];
  const send = async (b: CreatePodRequest) => { sent.push(b.gpu!.id); return b.gpu!.id === 'NVIDIA C' ? answer(201, 'pod1') : answer(400); };
  const out = await onOtherGpuTypes(answer(400), body, ['NVIDIA B', 'NVIDIA A', 'NVIDIA C', 'NVIDIA D'], send);
  assert.deepEqual(sent, ['NVIDIA A', 'NVIDIA C'], 'the first type is not sent again; the rest stop at the first non-400');
  assert.equal(out.res.status, 201);
  assert.deepEqual(out.body.gpu, { id: 'NVIDIA C', count: 2 });
  assert.deepEqual(out.refused, ['NVIDIA B', 'NVIDIA A']);
});

test('every type refusing returns the last 400 and the original body; other answers and CPU bodies are not retried', async () => {
  let calls = 0;
  const refuse = async () => { calls++; return answer(400); };
  const all = await onOtherGpuTypes(answer(400), body, ['NVIDIA A', 'NVIDIA C'], refuse);
  assert.equal(all.res.status, 400);
  assert.equal(all.body, body);
  assert.deepEqual(all.refused, ['NVIDIA B', 'NVIDIA A', 'NVIDIA C']);
  calls = 0;
  assert.equal((await onOtherGpuTypes(answer(422), body, ['NVIDIA A'], refuse)).res.status, 422);
  assert.equal((await onOtherGpuTypes(answer(400), { name: 'c', image: 'i', cpu: { id: 'cpu3c', vcpuCount: 2 } }, ['NVIDIA A'], refuse)).refused.length, 0);
  assert.equal(calls, 0);
});
