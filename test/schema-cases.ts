/**
 * Documents for the schemas, built from the spec's field tables: valid ones and ones that break
 * one rule each, with the issues they must raise. test/schemas.test.ts checks the issues;
 * test/schema-precompiled.test.ts starts from them to compare precompiled and compiled validators.
 */
import type { SchemaName } from '../lib/schema-registry.js';

export type Json = Record<string, unknown>;

export function clone<T>(value: T): T {
  return structuredClone(value);
}

function without<T extends Json>(value: T, ...keys: string[]): Json {
  const copy: Json = clone(value);
  for (const key of keys) delete copy[key];
  return copy;
}

// ------------------------------------------------------------------------------------------------
// Fixtures built from the spec's field tables

export const gpuPod = {
  id: 'pod-1',
  name: 'trainer',
  status: 'RUNNING',
  actions: ['stop', 'restart', 'terminate'],
  image: 'registry.example/trainer:1.0',
  args: '--epochs 3',
  disk: 20,
  ports: ['8888/http', '22/tcp'],
  env: { HF_HOME: '/workspace/hf' },
  registry: null,
  mounts: { network: [{ volumeId: 'vol-1', path: '/workspace' }] },
  gpu: { id: 'NVIDIA A100 80GB', count: 1 },
  cloud: 'SECURE',
  dataCenterId: 'US-TX-3',
  template: null,
  cost: 1.19,
  locked: false,
  globalNetworking: { enabled: true, ip: '10.1.0.2', internalDns: 'pod-1.internal.example' },
  runtime: {
    uptime: 120,
    gpus: [{ util: 30, memoryUtil: 50 }],
    cpu: { util: 12 },
    memory: { util: 40 },
    ports: [{ private: 8888, public: 30001, type: 'http', ip: '203.0.113.7' }, { private: 22, public: null, type: 'tcp', ip: null }],
  },
  createdAt: '2025-01-01T00:00:00Z',
  startedAt: '2025-01-01T00:01:30Z',
};

export const cpuPod = {
  ...without(gpuPod, 'gpu'),
  id: 'pod-2',
  status: 'PROVISIONING',
  actions: ['stop', 'terminate'],
  cpu: { id: 'cpu5c', vcpuCount: 4, memory: 8 },
  mounts: {},
  globalNetworking: { enabled: false },
  runtime: null,
  startedAt: null,
};

export const gpuRequest = {
  name: 'trainer',
  image: 'registry.example/trainer:1.0',
  gpu: { id: 'NVIDIA A100 80GB', count: 2 },
  args: '--epochs 3',
  disk: 20,
  ports: ['8888/http'],
  env: { A: 'b' },
  registry: null,
  mounts: { persistent: { size: 50, path: '/workspace' } },
  cloud: 'COMMUNITY',
  dataCenterIds: ['US-TX-3'],
  globalNetworking: true,
};

export const cpuRequest = {
  name: 'worker',
  image: 'busybox:latest',
  cpu: { id: 'cpu5c', vcpuCount: 2 },
  mounts: { network: [{ volumeId: 'vol-1', path: '/data' }] },
};

export interface Case {
  schema: SchemaName;
  title: string;
  data: unknown;
  /** Omitted: the data is valid. Given: invalid, and each pointer (optionally with keyword) must be among the issues. */
  issues?: ReadonlyArray<string | { path: string; keyword: string }>;
}

export const cases: Case[] = [
  // CreatePodRequest
  { schema: 'create-pod-request', title: 'full GPU request', data: gpuRequest },
  { schema: 'create-pod-request', title: 'CPU request with a network mount', data: cpuRequest },
  { schema: 'create-pod-request', title: 'minimal GPU request', data: { name: 'n', image: 'i', gpu: { id: 'g' } } },
  { schema: 'create-pod-request', title: 'empty dataCenterIds', data: { ...cpuRequest, dataCenterIds: [] } },
  { schema: 'create-pod-request', title: 'unknown property at the root', data: { ...gpuRequest, foo: 1 }, issues: [{ path: '/foo', keyword: 'additionalProperties' }] },
  { schema: 'create-pod-request', title: 'unknown property inside gpu', data: { ...gpuRequest, gpu: { id: 'g', foo: 1 } }, issues: [{ path: '/gpu/foo', keyword: 'unevaluatedProperties' }] },
  { schema: 'create-pod-request', title: 'unknown property inside cpu', data: { ...cpuRequest, cpu: { id: 'c', vcpuCount: 2, foo: 1 } }, issues: [{ path: '/cpu/foo', keyword: 'additionalProperties' }] },
  { schema: 'create-pod-request', title: 'cpu.memory sent', data: { ...cpuRequest, cpu: { id: 'c', vcpuCount: 2, memory: 4 } }, issues: [{ path: '/cpu/memory', keyword: 'additionalProperties' }] },
  { schema: 'create-pod-request', title: 'both mounts', data: { ...gpuRequest, mounts: { persistent: { size: 10, path: '/p' }, network: [{ volumeId: 'v', path: '/n' }] } }, issues: [{ path: '/mounts', keyword: 'not' }] },
  { schema: 'create-pod-request', title: 'two network mounts', data: { ...cpuRequest, mounts: { network: [{ volumeId: 'v', path: '/a' }, { volumeId: 'w', path: '/b' }] } }, issues: [{ path: '/mounts/network', keyword: 'maxItems' }] },
  { schema: 'create-pod-request', title: 'persistent size 9', data: { ...gpuRequest, mounts: { persistent: { size: 9, path: '/p' } } }, issues: [{ path: '/mounts/persistent/size', keyword: 'minimum' }] },
  { schema: 'create-pod-request', title: 'persistent size 10 is the minimum', data: { ...gpuRequest, mounts: { persistent: { size: 10, path: '/p' } } } },
  { schema: 'create-pod-request', title: 'persistent mount on a CPU pod', data: { ...cpuRequest, mounts: { persistent: { size: 20, path: '/p' } } }, issues: ['/mounts/persistent'] },
  { schema: 'create-pod-request', title: 'incomplete persistent mount', data: { ...gpuRequest, mounts: { persistent: { size: 20 } } }, issues: [{ path: '/mounts/persistent/path', keyword: 'required' }] },
  { schema: 'create-pod-request', title: 'incomplete network mount', data: { ...cpuRequest, mounts: { network: [{ path: '/n' }] } }, issues: [{ path: '/mounts/network/0/volumeId', keyword: 'required' }] },
  { schema: 'create-pod-request', title: 'unknown property inside a network mount', data: { ...cpuRequest, mounts: { network: [{ volumeId: 'v', path: '/n', readOnly: true }] } }, issues: ['/mounts/network/0/readOnly'] },
  { schema: 'create-pod-request', title: 'vcpuCount 3 (not a power of two)', data: { ...cpuRequest, cpu: { id: 'c', vcpuCount: 3 } }, issues: ['/cpu/vcpuCount'] },
  { schema: 'create-pod-request', title: 'vcpuCount 1 (below the minimum)', data: { ...cpuRequest, cpu: { id: 'c', vcpuCount: 1 } }, issues: [{ path: '/cpu/vcpuCount', keyword: 'minimum' }] },
  { schema: 'create-pod-request', title: 'vcpuCount 64', data: { ...cpuRequest, cpu: { id: 'c', vcpuCount: 64 } } },
  { schema: 'create-pod-request', title: 'cpu.id empty', data: { ...cpuRequest, cpu: { id: '', vcpuCount: 2 } }, issues: [{ path: '/cpu/id', keyword: 'minLength' }] },
  { schema: 'create-pod-request', title: 'cpu without vcpuCount', data: { ...cpuRequest, cpu: { id: 'c' } }, issues: [{ path: '/cpu/vcpuCount', keyword: 'required' }] },
  { schema: 'create-pod-request', title: 'gpu.count 0', data: { ...gpuRequest, gpu: { id: 'g', count: 0 } }, issues: [{ path: '/gpu/count', keyword: 'minimum' }] },
  { schema: 'create-pod-request', title: 'gpu.count 1.5', data: { ...gpuRequest, gpu: { id: 'g', count: 1.5 } }, issues: [{ path: '/gpu/count', keyword: 'type' }] },
  { schema: 'create-pod-request', title: 'gpu without id', data: { ...gpuRequest, gpu: { count: 1 } }, issues: [{ path: '/gpu/id', keyword: 'required' }] },
  { schema: 'create-pod-request', title: 'name ""', data: { ...gpuRequest, name: '' }, issues: [{ path: '/name', keyword: 'minLength' }] },
  { schema: 'create-pod-request', title: 'missing name', data: without(gpuRequest, 'name'), issues: [{ path: '/name', keyword: 'required' }] },
  { schema: 'create-pod-request', title: 'missing image', data: without(gpuRequest, 'image'), issues: [{ path: '/image', keyword: 'required' }] },
  { schema: 'create-pod-request', title: 'both gpu and cpu', data: { ...gpuRequest, mounts: {}, cpu: { id: 'c', vcpuCount: 2 } }, issues: [{ path: '', keyword: 'oneOf' }] },
  { schema: 'create-pod-request', title: 'neither gpu nor cpu', data: without(gpuRequest, 'gpu'), issues: [{ path: '', keyword: 'oneOf' }] },
  { schema: 'create-pod-request', title: 'disk 0', data: { ...gpuRequest, disk: 0 }, issues: [{ path: '/disk', keyword: 'minimum' }] },
  { schema: 'create-pod-request', title: 'port without protocol', data: { ...gpuRequest, ports: ['8888'] }, issues: [{ path: '/ports/0', keyword: 'pattern' }] },
  { schema: 'create-pod-request', title: 'env value not a string', data: { ...gpuRequest, env: { A: 1 } }, issues: [{ path: '/env/A', keyword: 'type' }] },
  { schema: 'create-pod-request', title: 'unknown cloud', data: { ...gpuRequest, cloud: 'PRIVATE' }, issues: [{ path: '/cloud', keyword: 'enum' }] },
  { schema: 'create-pod-request', title: 'globalNetworking not boolean', data: { ...gpuRequest, globalNetworking: 'yes' }, issues: [{ path: '/globalNetworking', keyword: 'type' }] },
  { schema: 'create-pod-request', title: 'dataCenterIds not strings', data: { ...gpuRequest, dataCenterIds: [1] }, issues: [{ path: '/dataCenterIds/0', keyword: 'type' }] },

  // Pod (response)
  { schema: 'pod', title: 'full GPU pod', data: gpuPod },
  { schema: 'pod', title: 'CPU pod being provisioned', data: cpuPod },
  { schema: 'pod', title: 'extra field is accepted', data: { ...gpuPod, machineId: 'm-1', uptimeSeconds: 3 } },
  { schema: 'pod', title: 'extra field inside gpu is accepted', data: { ...gpuPod, gpu: { id: 'g', count: 1, displayName: 'A100' } } },
  { schema: 'pod', title: 'exited pod costs 0.0', data: { ...gpuPod, status: 'EXITED', runtime: null, cost: 0 } },
  { schema: 'pod', title: 'missing runtime', data: without(gpuPod, 'runtime'), issues: [{ path: '/runtime', keyword: 'required' }] },
  { schema: 'pod', title: 'missing startedAt', data: without(gpuPod, 'startedAt'), issues: [{ path: '/startedAt', keyword: 'required' }] },
  { schema: 'pod', title: 'runtime while not RUNNING', data: { ...gpuPod, status: 'STARTING' }, issues: [{ path: '/runtime', keyword: 'type' }] },
  { schema: 'pod', title: 'runtime of the wrong type', data: { ...gpuPod, runtime: 'up' }, issues: [{ path: '/runtime', keyword: 'type' }] },
  { schema: 'pod', title: 'cost while EXITED', data: { ...gpuPod, status: 'EXITED', runtime: null, cost: 0.5 }, issues: [{ path: '/cost', keyword: 'const' }] },
  { schema: 'pod', title: 'cpu util above 100', data: { ...gpuPod, runtime: { cpu: { util: 101 } } }, issues: [{ path: '/runtime/cpu/util', keyword: 'maximum' }] },
  { schema: 'pod', title: 'both gpu and cpu', data: { ...gpuPod, cpu: { id: 'c', vcpuCount: 2, memory: 4 } }, issues: [{ path: '', keyword: 'oneOf' }] },
  { schema: 'pod', title: 'neither gpu nor cpu', data: without(gpuPod, 'gpu'), issues: [{ path: '', keyword: 'oneOf' }] },
  { schema: 'pod', title: 'CPU pod without memory', data: { ...cpuPod, cpu: { id: 'c', vcpuCount: 2 } }, issues: [{ path: '/cpu/memory', keyword: 'required' }] },
  { schema: 'pod', title: 'CPU pod with a persistent mount', data: { ...cpuPod, mounts: { persistent: { size: 20, path: '/p' } } }, issues: ['/mounts/persistent'] },
  { schema: 'pod', title: 'Mounts with an extra field', data: { ...gpuPod, mounts: { network: [], extra: true } }, issues: [{ path: '/mounts/extra', keyword: 'additionalProperties' }] },
  { schema: 'pod', title: 'NetworkMount with an extra field', data: { ...gpuPod, mounts: { network: [{ volumeId: 'v', path: '/p', size: 1 }] } }, issues: [{ path: '/mounts/network/0/size', keyword: 'additionalProperties' }] },
  { schema: 'pod', title: 'global networking disabled but an ip', data: { ...gpuPod, globalNetworking: { enabled: false, ip: '10.0.0.1' } }, issues: ['/globalNetworking/ip'] },
  { schema: 'pod', title: 'createdAt not a date-time', data: { ...gpuPod, createdAt: 'yesterday' }, issues: [{ path: '/createdAt', keyword: 'format' }] },
  { schema: 'pod', title: 'unknown status', data: { ...gpuPod, status: 'PAUSED' }, issues: [{ path: '/status', keyword: 'enum' }] },
  { schema: 'pod', title: 'unknown action', data: { ...gpuPod, actions: ['pause'] }, issues: [{ path: '/actions/0', keyword: 'enum' }] },
  { schema: 'pod', title: 'registry missing', data: without(gpuPod, 'registry'), issues: [{ path: '/registry', keyword: 'required' }] },
  { schema: 'pod-list', title: 'list of pods', data: { pods: [gpuPod, cpuPod] } },
  { schema: 'pod-list', title: 'list with a broken pod', data: { pods: [gpuPod, without(cpuPod, 'cost')] }, issues: [{ path: '/pods/1/cost', keyword: 'required' }] },

  // Mounts on their own, and PATCH / action bodies
  { schema: 'mounts', title: 'empty mounts', data: {} },
  { schema: 'mounts', title: 'extra field', data: { persistent: { size: 10, path: '/p' }, extra: 1 }, issues: [{ path: '/extra', keyword: 'additionalProperties' }] },
  { schema: 'mounts', title: 'both kinds', data: { persistent: { size: 10, path: '/p' }, network: [] }, issues: [{ path: '', keyword: 'not' }] },
  { schema: 'persistent-mount', title: 'extra field', data: { size: 10, path: '/p', volumeId: 'v' }, issues: ['/volumeId'] },
  { schema: 'update-pod-request', title: 'rename and lock', data: { name: 'n2', locked: true, mounts: {} } },
  { schema: 'update-pod-request', title: 'immutable field', data: { gpu: { id: 'g' } }, issues: [{ path: '/gpu', keyword: 'additionalProperties' }] },
  { schema: 'update-pod-request', title: 'incomplete mount entry', data: { mounts: { network: [{ path: '/new' }] } }, issues: [{ path: '/mounts/network/0/volumeId', keyword: 'required' }] },
  { schema: 'pod-action-request', title: 'stop', data: { action: 'stop' } },
  { schema: 'pod-action-request', title: 'unknown action', data: { action: 'pause' }, issues: [{ path: '/action', keyword: 'enum' }] },

  // Errors
  { schema: 'problem', title: 'problem with errors', data: { title: 'Unprocessable', status: 422, detail: 'invalid body', errors: ['/gpu/foo: unknown property "foo" is not allowed'], type: 'about:blank' } },
  { schema: 'problem', title: 'problem without detail', data: { title: 'Bad', status: 400 }, issues: [{ path: '/detail', keyword: 'required' }] },
  { schema: 'problem', title: 'errors not strings', data: { title: 'Bad', status: 400, detail: 'd', errors: [{}] }, issues: [{ path: '/errors/0', keyword: 'type' }] },

  // Serverless jobs
  { schema: 'job-request', title: 'input object', data: { input: { prompt: 'hi' } } },
  { schema: 'job-request', title: 'input missing', data: {}, issues: [{ path: '/input', keyword: 'required' }] },
  { schema: 'job-request', title: 'input not an object', data: { input: 'hi' }, issues: [{ path: '/input', keyword: 'type' }] },
  { schema: 'job-request', title: 'webhook, policy, s3Config and an unknown key (open: the platform takes the three and drops the others)', data: { input: {}, webhook: 'http://127.0.0.1:9/x', policy: { ttl: 60_000 }, s3Config: { bucketName: 'b' }, extra: 1 } },
  { schema: 'job', title: 'completed job', data: { id: 'sync-1', status: 'COMPLETED', output: { url: 'https://x' }, delayTime: 12, executionTime: 300 } },
  { schema: 'job', title: 'queued job', data: { id: 'j-1', status: 'IN_QUEUE' } },
  { schema: 'job', title: 'output of any JSON type', data: { id: 'j-1', status: 'IN_PROGRESS', output: ['a', 1] } },
  { schema: 'job', title: 'completed without timings', data: { id: 'j-1', status: 'COMPLETED', output: 1 }, issues: [{ path: '/delayTime', keyword: 'required' }, { path: '/executionTime', keyword: 'required' }] },
  { schema: 'job', title: 'unknown status', data: { id: 'j-1', status: 'DONE' }, issues: [{ path: '/status', keyword: 'enum' }] },
  { schema: 'job-handle', title: 'handle', data: { id: 'j-1', status: 'CANCELLED' } },
  { schema: 'job-handle', title: 'handle without id', data: { status: 'IN_QUEUE' }, issues: ['/id'] },
  {
    schema: 'stream-item',
    title: 'text-generation chunk',
    data: {
      output: { input_tokens: 5, output_tokens: 2, text: ['Hel', 'lo'] },
      metrics: { avg_gen_throughput: 1.5, avg_prompt_throughput: 2, cpu_kv_cache_usage: 0, gpu_kv_cache_usage: 0.25, input_tokens: 5, output_tokens: 2, pending: 0, running: 1, stream_index: 0, swapped: 0, scenario: 'stream' },
    },
  },
  { schema: 'stream-item', title: 'text not strings', data: { output: { input_tokens: 1, output_tokens: 1, text: [1] }, metrics: {} }, issues: ['/output/text/0', '/metrics/scenario'] },
  { schema: 'stream-response', title: 'empty stream', data: { status: 'IN_PROGRESS', stream: [] } },
  { schema: 'stream-response', title: 'stream missing', data: { status: 'COMPLETED' }, issues: ['/stream'] },
  { schema: 'health', title: 'health with more worker counters', data: { jobs: { completed: 1, failed: 0, inProgress: 0, inQueue: 2, retried: 0 }, workers: { idle: 1, running: 0, initializing: 2 } } },
  { schema: 'health', title: 'health missing retried', data: { jobs: { completed: 1, failed: 0, inProgress: 0, inQueue: 2 }, workers: { idle: 1, running: 0 } }, issues: ['/jobs/retried'] },
  { schema: 'purge-queue-response', title: 'purged', data: { removed: 3, status: 'completed' } },
  { schema: 'purge-queue-response', title: 'status not lowercase', data: { removed: 3, status: 'COMPLETED' }, issues: [{ path: '/status', keyword: 'const' }] },

  // GraphQL views and inputs
  { schema: 'endpoint', title: 'selected fields', data: { id: 'e1', name: 'ep', gpuIds: 'AMPERE_16', type: 'QB', locations: null, flashBootType: 'FLASHBOOT', scalerType: 'QUEUE_DELAY', scalerValue: 4, workersMin: 0, workersMax: 3, networkVolumeId: null, pods: [{ desiredStatus: 'RUNNING' }] } },
  { schema: 'endpoint', title: 'unknown GPU tier', data: { gpuIds: 'HOPPER_80' }, issues: [{ path: '/gpuIds', keyword: 'enum' }] },
  { schema: 'endpoint', title: 'unknown location', data: { locations: 'DE' }, issues: [{ path: '/locations', keyword: 'enum' }] },
  { schema: 'endpoint', title: 'empty location means any', data: { locations: '' } },
  { schema: 'endpoint-input', title: 'create input', data: { name: 'ep', gpuIds: 'ADA_24', templateId: 't1', workersMax: 2 } },
  { schema: 'endpoint-input', title: 'update input', data: { id: 'e1', name: 'ep', gpuIds: 'ADA_24', templateId: 't1', workersMin: 0 } },
  { schema: 'endpoint-input', title: 'missing templateId', data: { name: 'ep', gpuIds: 'ADA_24' }, issues: [{ path: '/templateId', keyword: 'required' }] },
  { schema: 'endpoint-input', title: 'pods is output only', data: { name: 'ep', gpuIds: 'ADA_24', templateId: 't', pods: [] }, issues: ['/pods'] },
  { schema: 'endpoint-input', title: 'unknown type', data: { name: 'ep', gpuIds: 'ADA_24', templateId: 't', type: 'XX' }, issues: ['/type'] },
  { schema: 'template-input', title: 'serverless template', data: { name: 't', imageName: 'img:1', containerDiskInGb: 5, volumeInGb: 0, isServerless: true, env: [{ key: 'A', value: 'b' }], ports: '8000/http,22/tcp' } },
  { schema: 'template-input', title: 'serverless template with a volume', data: { name: 't', imageName: 'img:1', containerDiskInGb: 5, volumeInGb: 10, isServerless: true }, issues: [{ path: '/volumeInGb', keyword: 'const' }] },
  { schema: 'template-input', title: 'missing volumeInGb', data: { name: 't', imageName: 'img:1', containerDiskInGb: 5 }, issues: ['/volumeInGb'] },
  { schema: 'template-input', title: 'env entry incomplete', data: { name: 't', imageName: 'i', containerDiskInGb: 5, volumeInGb: 0, env: [{ key: 'A' }] }, issues: ['/env/0/value'] },
  { schema: 'template-input', title: 'bad ports list', data: { name: 't', imageName: 'i', containerDiskInGb: 5, volumeInGb: 0, ports: '8000' }, issues: ['/ports'] },
  { schema: 'template', title: 'selected template fields', data: { id: 't1', name: 't', imageName: 'img', volumeInGb: 0, isServerless: true, env: [] } },
  { schema: 'secret-input', title: 'secret input', data: { name: 's', value: 'v' } },
  { schema: 'secret-input', title: 'secret input with description', data: { name: 's', value: 'v', description: 'd' }, issues: ['/description'] },
  { schema: 'secret', title: 'secret result', data: { id: 's1', name: 's', description: null } },
  { schema: 'serverless-discount', title: 'discount', data: { discountFactor: 0.9, type: 'PROMO', expirationDate: '2026-01-01' } },
  { schema: 'rest-v1-endpoint-request', title: 'v1 endpoint', data: { name: 'ep', templateId: 't', gpuTypeIds: ['NVIDIA A40', 'NVIDIA L4'], workersMin: 0, workersMax: 2, idleTimeout: 5 } },
  { schema: 'rest-v1-endpoint-request', title: 'v1 unknown field', data: { name: 'ep', flashboot: true }, issues: ['/flashboot'] },
  { schema: 'graphql-request', title: 'query with null variables', data: { query: '{ myself { id } }', variables: null } },
  { schema: 'graphql-request', title: 'no query', data: { variables: {} }, issues: ['/query'] },
  { schema: 'graphql-response', title: 'error result', data: { data: { saveTemplate: null }, errors: [{ message: 'duplicate name', path: ['saveTemplate'] }] } },
  { schema: 'graphql-response', title: 'neither data nor errors', data: {}, issues: [{ path: '', keyword: 'anyOf' }] },

  // Catalog and network volumes (OBSERVED)
  { schema: 'data-center', title: 'data center', data: { id: 'US-TX-3', name: 'Texas 3', globalNetwork: true } },
  { schema: 'cpu-flavor', title: 'cpu flavor', data: { id: 'cpu5c', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 2 } },
  { schema: 'gpu-type', title: 'gpu type', data: { id: 'NVIDIA A100 80GB', displayName: 'A100' } },
  { schema: 'network-volume', title: 'volume', data: { id: 'vol-1', name: 'data', size: 100, dataCenter: 'US-TX-3', type: 'STANDARD' } },
  { schema: 'network-volume-request', title: 'create volume', data: { name: 'data', size: 10, dataCenter: 'US-TX-3' } },
  { schema: 'network-volume-request', title: 'too large', data: { name: 'data', size: 4097, dataCenter: 'US-TX-3' }, issues: [{ path: '/size', keyword: 'maximum' }] },
  { schema: 'network-volume-update-request', title: 'grow', data: { size: 200 } },
];
