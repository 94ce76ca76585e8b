/**
 * The schemas are the suite's reading of the spec: they must compile in Ajv strict mode, accept what
 * the spec allows and reject each rule broken on its own with a pointer at the offending value.
 * Also checks schemas/openapi.yaml, schemas/schema.graphql and that lib/types.gen.ts is current.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { buildSchema, isEnumType, isNonNullType, isObjectType } from 'graphql';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  SCHEMA_BASE,
  formatIssues,
  schemaNames,
  schemaOf,
  validate,
  type SchemaName,
  type ValidationIssue,
} from '../lib/schema-registry.js';
import { checkTypes, typeName } from '../scripts/gen-types.js';

const SCHEMAS_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));
const SUFFIX = '.schema.json';

type Json = Record<string, unknown>;

function clone<T>(value: T): T {
  return structuredClone(value);
}

function without<T extends Json>(value: T, ...keys: string[]): Json {
  const copy: Json = clone(value);
  for (const key of keys) delete copy[key];
  return copy;
}

// ------------------------------------------------------------------------------------------------
// Fixtures built from the spec's field tables

const gpuPod = {
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

const cpuPod = {
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

const gpuRequest = {
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

const cpuRequest = {
  name: 'worker',
  image: 'busybox:latest',
  cpu: { id: 'cpu5c', vcpuCount: 2 },
  mounts: { network: [{ volumeId: 'vol-1', path: '/data' }] },
};

interface Case {
  schema: SchemaName;
  title: string;
  data: unknown;
  /** Omitted: the data is valid. Given: invalid, and each pointer (optionally with keyword) must be among the issues. */
  issues?: ReadonlyArray<string | { path: string; keyword: string }>;
}

const cases: Case[] = [
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
  { schema: 'job-request', title: 'unknown key', data: { input: {}, extra: 1 }, issues: ['/extra'] },
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

function hasIssue(issues: readonly ValidationIssue[], expected: string | { path: string; keyword: string }): boolean {
  const path = typeof expected === 'string' ? expected : expected.path;
  const keyword = typeof expected === 'string' ? undefined : expected.keyword;
  return issues.some((issue) => issue.path === path && (keyword === undefined || issue.keyword === keyword));
}

// ------------------------------------------------------------------------------------------------

describe('JSON Schemas', () => {
  const files = readdirSync(SCHEMAS_DIR).filter((file) => file.endsWith(SUFFIX)).sort();

  it('every schema file is registered and compiles in Ajv strict mode', () => {
    assert.deepEqual([...schemaNames()], files.map((file) => file.slice(0, -SUFFIX.length)));
    for (const name of schemaNames()) {
      assert.doesNotThrow(() => validate(name, null), `schema ${name} must compile`);
    }
  });

  it('follows the file conventions: $schema, $id from the file name, unique titles, a description', () => {
    const titles = new Set<string>();
    const ids = new Set<string>();
    for (const name of schemaNames()) {
      const schema = schemaOf(name);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', name);
      assert.equal(schema.$id, `${SCHEMA_BASE}${name}${SUFFIX}`, name);
      assert.ok(typeof schema.title === 'string' && schema.title.length > 0, `${name}: title`);
      assert.match(typeName(String(schema.title)), /^[A-Z][A-Za-z0-9]*$/, `${name}: title gives a PascalCase type name`);
      assert.ok(typeof schema.description === 'string' && schema.description.length > 20, `${name}: description`);
      assert.ok(!titles.has(typeName(String(schema.title))), `${name}: title ${String(schema.title)} used twice`);
      assert.ok(!ids.has(String(schema.$id)), `${name}: $id used twice`);
      titles.add(typeName(String(schema.title)));
      ids.add(String(schema.$id));
    }
  });

  it('uses only relative cross-file $refs that name existing schema files (or local pointers)', () => {
    let crossFile = 0;
    for (const name of schemaNames()) {
      const schema = schemaOf(name);
      for (const ref of collectRefs(schema)) {
        if (ref.startsWith('#')) {
          assert.notEqual(resolvePointer(schema, ref.slice(1)), undefined, `${name}: ${ref} resolves`);
          continue;
        }
        crossFile += 1;
        assert.match(ref, /^[a-z0-9-]+\.schema\.json$/, `${name}: relative file $ref expected, got ${ref}`);
        assert.ok(existsSync(`${SCHEMAS_DIR}${ref}`), `${ref} exists`);
      }
    }
    assert.ok(crossFile > 10);
  });

  it('schemaOf returns a frozen copy', () => {
    const pod = schemaOf('pod');
    assert.ok(Object.isFrozen(pod));
    assert.throws(() => {
      (pod as Record<string, unknown>).title = 'Changed';
    });
  });

  it('quotes the spec numbers', () => {
    const prop = (name: SchemaName, ...path: string[]): Record<string, unknown> => {
      let node: unknown = schemaOf(name);
      for (const key of path) node = (node as Record<string, unknown>)[key];
      return node as Record<string, unknown>;
    };
    assert.equal(prop('create-pod-request', 'properties', 'disk').minimum, 1);
    assert.equal(prop('persistent-mount', 'properties', 'size').minimum, 10);
    assert.equal(prop('mounts', 'properties', 'network').maxItems, 1);
    assert.equal(prop('gpu-config', 'properties', 'count').minimum, 1);
    assert.equal(prop('gpu-config', 'properties', 'count').default, 1);
    assert.equal(prop('cpu-config-request', 'properties', 'vcpuCount').minimum, 2);
    assert.equal(prop('cpu-config', 'properties', 'memory').minimum, 1);
    assert.equal(prop('create-pod-request', 'properties', 'name').minLength, 1);
    assert.equal(prop('create-pod-request', 'properties', 'cloud').default, 'SECURE');
    assert.equal(prop('create-pod-request', 'properties', 'globalNetworking').default, false);
  });

  for (const c of cases) {
    const verdict = c.issues ? 'invalid' : 'valid';
    it(`${c.schema}: ${c.title} is ${verdict}`, () => {
      const result = validate(c.schema, c.data);
      if (!c.issues) {
        assert.ok(result.valid, result.valid ? '' : `unexpected issues:\n${formatIssues(result.issues)}`);
        return;
      }
      assert.equal(result.valid, false, 'expected the data to be rejected');
      if (result.valid) return;
      for (const expected of c.issues) {
        assert.ok(hasIssue(result.issues, expected), `expected ${JSON.stringify(expected)} among:\n${formatIssues(result.issues)}`);
      }
      for (const issue of result.issues) {
        assert.ok(issue.message.length > 0 && !issue.message.includes('undefined'), `readable message: ${JSON.stringify(issue)}`);
      }
    });
  }
});

describe('validation issues', () => {
  it('name the unknown property with its own pointer', () => {
    const result = validate('create-pod-request', { ...gpuRequest, gpu: { id: 'g', foo: 1 } });
    assert.equal(result.valid, false);
    if (result.valid) return;
    assert.deepEqual(result.issues, [{ path: '/gpu/foo', keyword: 'unevaluatedProperties', message: 'unknown property "foo" is not allowed' }]);
  });

  it('format one line per issue', () => {
    const result = validate('create-pod-request', { ...gpuRequest, gpu: { id: 'g', count: 0 }, name: '' });
    assert.equal(result.valid, false);
    if (result.valid) return;
    const text = formatIssues(result.issues);
    assert.equal(text.split('\n').length, result.issues.length);
    assert.match(text, /^\/gpu\/count: must be >= 1$/m);
    assert.match(text, /^\/name: must NOT have fewer than 1 characters$/m);
  });

  it('explain exactly-one-of and mutually exclusive rules in words, without the wrapper noise', () => {
    const both = validate('create-pod-request', { ...cpuRequest, gpu: { id: 'g' } });
    assert.equal(both.valid, false);
    if (!both.valid) {
      assert.deepEqual(both.issues.map((i) => i.keyword), ['oneOf']);
      assert.match(formatIssues(both.issues), /^\(root\): must have exactly one of the properties "gpu", "cpu"; "gpu" and "cpu" are present$/);
    }
    const mounts = validate('mounts', { persistent: { size: 10, path: '/p' }, network: [{ volumeId: 'v', path: '/n' }] });
    assert.equal(mounts.valid, false);
    if (!mounts.valid) assert.match(formatIssues(mounts.issues), /properties "persistent" and "network" are mutually exclusive/);
  });

  it('report a non-object body by its type only', () => {
    assert.deepEqual(validate('create-pod-request', 'nope'), { valid: false, issues: [{ path: '', keyword: 'type', message: 'must be object' }] });
    assert.deepEqual(validate('pod', { ...gpuPod, runtime: 'up' }), { valid: false, issues: [{ path: '/runtime', keyword: 'type', message: 'must be object' }] });
  });

  it('say which condition made a then-branch apply', () => {
    const result = validate('create-pod-request', { ...cpuRequest, mounts: { persistent: { size: 20, path: '/p' } } });
    assert.equal(result.valid, false);
    if (result.valid) return;
    assert.deepEqual(result.issues, [
      { path: '/mounts/persistent', keyword: 'false schema', message: 'property "persistent" is not allowed here (when "cpu" is present)' },
    ]);
    const pod = validate('pod', { ...gpuPod, status: 'EXITED', cost: 2 });
    assert.equal(pod.valid, false);
    if (!pod.valid) {
      const text = formatIssues(pod.issues);
      assert.match(text, /^\/runtime: must be null \(when "status" is not "RUNNING"\)$/m);
      assert.match(text, /^\/cost: must be equal to 0 \(when "status" is one of "EXITED", "TERMINATED"\)$/m);
      assert.ok(!pod.issues.some((i) => i.keyword === 'if'), 'the if wrapper is folded into its then-branch issues');
    }
  });
});

// ------------------------------------------------------------------------------------------------

const OPENAPI_FILE = `${SCHEMAS_DIR}openapi.yaml`;

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

function resolvePointer(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe('schemas/openapi.yaml', () => {
  const text = readFileSync(OPENAPI_FILE, 'utf8');
  const doc = parseYaml(text) as Json;

  it('is a valid OpenAPI 3.1 document once the referenced schema files are added', async () => {
    const validator = new Validator();
    for (const file of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith(SUFFIX))) {
      const content = readFileSync(`${SCHEMAS_DIR}${file}`, 'utf8');
      // './pod.schema.json' is how openapi.yaml names a file, 'pod.schema.json' how the schemas name each other.
      await validator.addSpecRef(JSON.parse(content) as Json, `./${file}`);
      await validator.addSpecRef(JSON.parse(content) as Json, file);
    }
    const result = await validator.validate(text);
    assert.deepEqual(result, { valid: true });
    assert.equal(validator.version, '3.1');
  });

  it('the validator does reject a broken document (control)', async () => {
    const broken = clone(doc);
    delete (broken.info as Json).version;
    const result = await new Validator().validate(broken);
    assert.equal(result.valid, false);
  });

  it('is version 2.0.0 and references schema files, never copies', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal((doc.info as Json).version, '2.0.0');
    const refs = collectRefs(doc);
    for (const ref of refs) {
      if (ref.startsWith('#/')) {
        assert.notEqual(resolvePointer(doc, ref.slice(1)), undefined, `${ref} resolves inside openapi.yaml`);
      } else {
        assert.match(ref, /^\.\/[a-z0-9-]+\.schema\.json$/, `external $ref ${ref}`);
        assert.ok(existsSync(`${SCHEMAS_DIR}${ref.slice(2)}`), `${ref} exists`);
      }
    }
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    for (const [name, schema] of Object.entries(schemas)) {
      if (name === 'EmptyObject') continue;
      assert.deepEqual(Object.keys(schema), ['$ref'], `components.schemas.${name} is only a $ref`);
    }
  });

  const operations = (): Array<{ path: string; method: string; op: Json }> => {
    const out: Array<{ path: string; method: string; op: Json }> = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of ['get', 'post', 'patch', 'put', 'delete']) {
        const op = item[method];
        if (op) out.push({ path, method, op: op as Json });
      }
    }
    return out;
  };

  it('has the spec operations and marks the observed ones', () => {
    const byId = new Map(operations().map((o) => [String(o.op.operationId), o]));
    const spec = ['createPod', 'runSync', 'run', 'getJobStatus', 'streamJob', 'cancelJob', 'retryJob', 'purgeQueue', 'getHealth', 'createEndpointV1', 'graphql'];
    const observed = ['listPods', 'getPod', 'updatePod', 'deletePod', 'podAction', 'listGpuTypes', 'listCpuFlavors', 'listDataCenters', 'listNetworkVolumes', 'createNetworkVolume', 'getNetworkVolume', 'updateNetworkVolume', 'deleteNetworkVolume', 'getJobStatusSync'];
    for (const id of spec) {
      assert.ok(byId.has(id), `operation ${id}`);
      assert.notEqual(byId.get(id)?.op['x-observed'], true, `${id} is stated by the spec`);
    }
    for (const id of observed) {
      assert.ok(byId.has(id), `operation ${id}`);
      assert.equal(byId.get(id)?.op['x-observed'], true, `${id} is x-observed`);
    }
    const createPod = byId.get('createPod');
    assert.equal(createPod?.path, '/v2/pods');
    assert.equal(createPod?.method, 'post');
    assert.deepEqual(Object.keys((createPod?.op.responses ?? {}) as Json).sort(), ['201', '400', '401', '403', '422', '429', 'default']);
    const wait = ((byId.get('runSync')?.op.parameters ?? []) as Json[]).find((p) => p.name === 'wait');
    assert.deepEqual({ ...(wait?.schema as Json) }, { type: 'integer', minimum: 1000, maximum: 300000, default: 90000 });
    const ttl = ((byId.get('getJobStatus')?.op.parameters ?? []) as Json[]).find((p) => p.name === 'ttl');
    assert.ok(ttl, 'status takes ttl');
  });

  it('uses the serverless server and the three security schemes', () => {
    const schemes = (doc.components as Json).securitySchemes as Record<string, Json>;
    assert.deepEqual(schemes.bearerAuth, { ...schemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(schemes.serverlessApiKey, { ...schemes.serverlessApiKey, type: 'apiKey', in: 'header', name: 'authorization' });
    assert.deepEqual(schemes.graphqlApiKey, { ...schemes.graphqlApiKey, type: 'apiKey', in: 'query', name: 'api_key' });
    for (const { path, op } of operations()) {
      if (!/^\/v2\/\{endpointId\}\//.test(path)) continue;
      const servers = (doc.paths as Record<string, Json>)[path]?.servers as Json[] | undefined;
      assert.equal(servers?.[0]?.url, '{serverless_url}', `${path} runs on {serverless_url}`);
      assert.deepEqual(op.security, [{ serverlessApiKey: [] }, { bearerAuth: [] }], `${path} security`);
    }
  });

  it('answers every error with application/problem+json and the problem schema', () => {
    const responses = (doc.components as Json).responses as Record<string, Json>;
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (/^[23]/.test(status)) continue;
        const ref = String(response.$ref ?? '');
        const resolved = ref ? responses[ref.replace('#/components/responses/', '')] : response;
        const content = resolved?.content as Record<string, Json> | undefined;
        assert.deepEqual(Object.keys(content ?? {}), ['application/problem+json'], `${method} ${path} ${status}`);
        assert.deepEqual(content?.['application/problem+json']?.schema, { $ref: '#/components/schemas/Problem' });
      }
    }
    assert.equal(((doc.components as Json).schemas as Record<string, Json>).Problem?.$ref, './problem.schema.json');
  });
});

// ------------------------------------------------------------------------------------------------

describe('schemas/schema.graphql', () => {
  const sdl = readFileSync(`${SCHEMAS_DIR}schema.graphql`, 'utf8');
  const schema = buildSchema(sdl);

  it('has the seven operations of the spec with their arguments, and the live updateEndpointTemplate', () => {
    const query = schema.getQueryType();
    const mutation = schema.getMutationType();
    assert.ok(query && mutation);
    assert.equal(String(query.getFields().myself?.type), 'User');
    const fields = mutation.getFields();
    const signature = (name: string): string => {
      const field = fields[name];
      assert.ok(field, `mutation ${name}`);
      return `${field.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ')} -> ${String(field.type)}`;
    };
    assert.equal(signature('saveEndpoint'), 'input: EndpointInput! -> Endpoint');
    assert.equal(signature('deleteEndpoint'), 'id: String! -> Boolean');
    assert.equal(signature('saveTemplate'), 'input: PodTemplateInput! -> PodTemplate');
    assert.equal(signature('deleteTemplate'), 'templateName: String! -> Boolean');
    assert.equal(signature('secretCreate'), 'input: SecretInput! -> Secret');
    assert.equal(signature('secretDelete'), 'id: String! -> Boolean');
    assert.equal(signature('updateEndpointTemplate'), 'input: UpdateEndpointTemplateInput! -> Endpoint');
    assert.equal(Object.keys(fields).length + Object.keys(query.getFields()).length, 8);
  });

  it('types the spec fields', () => {
    const user = schema.getType('User');
    assert.ok(isObjectType(user));
    assert.equal(String(user.getFields().endpoints?.type), '[Endpoint]');
    assert.equal(String(user.getFields().serverlessDiscount?.type), 'ServerlessDiscount');
    assert.ok(user.getFields().id);
    const flash = schema.getType('FlashBootType');
    assert.ok(isEnumType(flash));
    assert.deepEqual(flash.getValues().map((v) => v.name), ['FLASHBOOT']);
    const endpoint = schema.getType('Endpoint');
    assert.ok(isObjectType(endpoint));
    assert.equal(String(endpoint.getFields().gpuIds?.type), 'String!');
    assert.equal(String(endpoint.getFields().locations?.type), 'String');
    assert.equal(String(endpoint.getFields().pods?.type), '[EndpointPod]');
    const secret = schema.getType('Secret');
    assert.ok(isObjectType(secret));
    assert.deepEqual(
      Object.values(secret.getFields()).map((f) => `${f.name}: ${String(f.type)}`),
      ['id: String!', 'name: String!', 'description: String'],
    );
    const endpointInput = schema.getType('EndpointInput');
    assert.ok(endpointInput && 'getFields' in endpointInput);
    const inputFields = (endpointInput as import('graphql').GraphQLInputObjectType).getFields();
    for (const required of ['gpuIds', 'name', 'templateId']) assert.ok(isNonNullType(inputFields[required]?.type), `${required} required`);
    assert.ok(!isNonNullType(inputFields.id?.type), 'id optional');
    assert.equal(inputFields.type?.defaultValue, 'QB');
    const templateInput = schema.getType('PodTemplateInput') as import('graphql').GraphQLInputObjectType;
    const templateFields = templateInput.getFields();
    for (const required of ['containerDiskInGb', 'imageName', 'name', 'volumeInGb']) {
      assert.ok(isNonNullType(templateFields[required]?.type), `${required} required`);
    }
    assert.equal(String(templateFields.env?.type), '[EnvironmentVariableInput]');
  });

  it('accepts the documented operations, FLASHBOOT without quotes', async () => {
    const { parse, validate: validateDocument } = await import('graphql');
    const documents = [
      'mutation { saveEndpoint(input: { name: "ep", gpuIds: "AMPERE_16", templateId: "t", flashBootType: FLASHBOOT, locations: "US" }) { id name gpuIds flashBootType pods { desiredStatus } } }',
      'mutation { deleteEndpoint(id: "e1") }',
      'query { myself { id endpoints { id workersMin workersMax } serverlessDiscount { discountFactor type expirationDate } } }',
      'mutation { saveTemplate(input: { name: "t", imageName: "i:1", containerDiskInGb: 5, volumeInGb: 0, isServerless: true, env: [{ key: "A", value: "b" }] }) { id name env { key value } } }',
      'mutation { deleteTemplate(templateName: "t") }',
      'mutation { secretCreate(input: { value: "v", name: "s" }) { id name description } }',
      'mutation { secretDelete(id: "s1") }',
    ];
    for (const source of documents) assert.deepEqual(validateDocument(schema, parse(source)), [], source);
    const quoted = validateDocument(schema, parse('mutation { saveEndpoint(input: { name: "e", gpuIds: "A", templateId: "t", flashBootType: "FLASHBOOT" }) { id } }'));
    assert.ok(quoted.length > 0, 'a quoted FLASHBOOT is rejected');
  });
});

// ------------------------------------------------------------------------------------------------

describe('lib/types.gen.ts', () => {
  it('--check logic reports a missing or different file as stale', async () => {
    const missing = await checkTypes(undefined, `${SCHEMAS_DIR}does-not-exist.ts`);
    assert.equal(missing.upToDate, false);
    assert.equal(missing.actual, null);
  });

  it('is up to date with the schemas (npm run gen)', async () => {
    const result = await checkTypes();
    assert.ok(result.actual !== null, 'lib/types.gen.ts exists');
    assert.ok(result.upToDate, 'lib/types.gen.ts is stale: run `npm run gen`');
  });

  it('declares one type per schema title and the SchemaName union', async () => {
    const { expected } = await checkTypes();
    for (const name of schemaNames()) {
      const title = typeName(String(schemaOf(name).title));
      assert.match(expected, new RegExp(`^export (interface|type) ${title}\\b`, 'm'), `type ${title}`);
      assert.match(expected, new RegExp(`^ {2}\\| '${name}';?$`, 'm'), `SchemaName has '${name}'`);
      const declarations = expected.match(new RegExp(`^export (interface|type) ${title}\\b`, 'gm')) ?? [];
      assert.equal(declarations.length, 1, `${title} is declared once`);
    }
    assert.match(expected, /^ {2}gpu\?: GpuConfig;$/m, 'cross-file $ref becomes a reference to the generated type');
    assert.match(expected, /^ {2}runtime: PodRuntime \| null;$/m);
  });
});
