// @own-process: starts the MCP server as a process.
// The platform's MCP server (npm `@runpod/mcp-server`) against the emulator, driven as an MCP
// client drives it: its stdio entry in a child process, `@modelcontextprotocol/sdk`'s Client over
// StdioClientTransport. Every tool whose operation the emulator serves is called and its answer
// checked; every other tool is called once and must come back as a clean error (the emulator's
// 404 problem+json, or 401 where the tool asks GraphQL without a key), never a hang or a crash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { request } from 'undici';
import { validate } from '../lib/schema-registry.js';
import { CPU_FLAVORS, DATA_CENTERS, GPU_TYPES } from '../emulator/pods/catalog.js';
import { HOST_CUDA_VERSIONS } from '../emulator/pods/cuda.js';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { SERVED, UNSERVED } from './clients-mcp-tools.js';

// Answers are read loosely on purpose: each check names the fields it relies on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

let emu: RunningEmulator;
let client: Client;
let seeded: { CPC_ENDPOINT_ID: string; CPC_NETWORK_VOLUME_IDS: string };
let stderr = '';

/** The MCP server's stdio entry, from its package's `bin`. */
function serverEntry(): string {
  const manifest = createRequire(import.meta.url).resolve('@runpod/mcp-server/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  return join(dirname(manifest), Object.values(bin)[0]!);
}

before(async () => {
  emu = await startEmulator({ port: 0 });
  // The server waits in real time (job polls, log reads), so this world's clock runs by itself:
  // 100 virtual ms per real ms. A pod is RUNNING 150 ms after creation.
  const res = await request(`${emu.url}/__emulator/worlds`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clock: { mode: 'auto', scale: 100 }, quotas: { minute: 1e6, hour: 1e7, day: 1e8 } }),
  });
  const world = (await res.body.json()) as Loose;
  seeded = world.seeded;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry()],
    // The variables and URL forms the server reads (its _shared/hosts.ts): REST v2 base without
    // /v2, serverless base with /v2, the GraphQL endpoint itself for both GraphQL clients.
    env: {
      PATH: process.env.PATH ?? '',
      RUNPOD_API_KEY: world.keys.main,
      RUNPOD_API_BASE_URL: emu.url,
      RUNPOD_SERVERLESS_API_URL: `${emu.url}/v2`,
      RUNPOD_PUBLIC_GRAPHQL_URL: `${emu.url}/graphql`,
      RUNPOD_AUTHED_GRAPHQL_URL: `${emu.url}/graphql`,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  client = new Client({ name: 'cpc-clients-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await emu?.close();
});

interface Called { ok: boolean; status: number | undefined; payload: Loose }

/** Calls a tool; the server answers one text item holding the JSON payload, `isError` on failure. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const res = await client.callTool({ name, arguments: args });
  const content = res.content as { type: string; text: string }[];
  assert.equal(content[0]?.type, 'text', `${name}: a text answer`);
  const payload = JSON.parse(content[0]!.text) as Loose;
  return { ok: res.isError !== true, status: statusOf(payload), payload };
}

/**
 * The HTTP status behind an answer: a REST answer carries it (the problem's `status`); the
 * server's own clients (logs, jobs, GraphQL) name it in their message, `Runpod API error (404)`.
 */
function statusOf(payload: Loose): number | undefined {
  if (typeof payload?.status === 'number') return payload.status;
  const named = /\((\d{3})\)/.exec(String(payload?.error ?? ''));
  return named ? Number(named[1]) : undefined;
}

/** Calls a tool that must succeed, and returns its payload. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<Loose> {
  const res = await call(name, args);
  assert.ok(res.ok, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(res.payload).slice(0, 400)}`);
  return res.payload;
}

/** A list answer, wrapped (`{pods: [...]}`, the live shape) or bare: both are legal deployments. */
function listOf(payload: Loose, key: string): Loose[] {
  if (Array.isArray(payload)) return payload;
  assert.ok(Array.isArray(payload?.[key]), `a list, bare or under "${key}": ${JSON.stringify(payload).slice(0, 200)}`);
  return payload[key];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Reads the pod until its status is `status` (the world's clock runs 100 times real time). */
async function podIn(id: string, status: string): Promise<Loose> {
  let pod: Loose;
  for (let i = 0; i < 100; i++) {
    pod = await ok('get-pod', { id });
    if (pod.status === status) return pod;
    await sleep(20);
  }
  assert.fail(`pod ${id} never reached ${status}; last ${pod?.status}`);
}

const newestCuda = HOST_CUDA_VERSIONS[HOST_CUDA_VERSIONS.length - 1];
const POD = { image: 'runpod/base:0.6', ports: ['22/tcp', '8888/http'], startSsh: true };

test('tools/list: every tool is either served (and exercised below) or listed as outside the emulator', async () => {
  const names = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(names, [...Object.keys(SERVED), ...Object.keys(UNSERVED)].sort(),
    'a tool added or removed by the server must be classified in test/clients-mcp-tools.ts');
});

test('pods: list, create GPU and CPU with startSsh and CUDA constraints, get, update, logs, stop, start, restart, terminate, delete', async () => {
  assert.equal(listOf(await ok('list-pods'), 'pods').length, 0, 'a new world has no pods');

  const gpu = await ok('create-pod', { body: { ...POD, name: 'mcp-gpu', gpu: { id: 'NVIDIA L40S', count: 2, minCudaVersion: '12.2' } } });
  assert.equal(gpu.status, 'PROVISIONING');
  assert.deepEqual(gpu.gpu, { id: 'NVIDIA L40S', count: 2 });
  assert.equal(gpu.cudaVersion, newestCuda, 'the newest host version at or above the floor');
  assert.deepEqual(gpu.ssh, { proxy: null, direct: null });
  assert.ok(validate('pod', gpu).valid && validate('pod-live-fields', gpu).valid, 'the spec Pod plus the live fields');
  const exact = await ok('create-pod', { body: { ...POD, name: 'mcp-gpu-exact', gpu: { id: 'NVIDIA GeForce RTX 4090', allowedCudaVersions: ['12.1', '12.4'] } } });
  assert.equal(exact.cudaVersion, '12.4');
  const refused = await call('create-pod', { body: { ...POD, name: 'mcp-no-host', gpu: { id: 'NVIDIA L40S', allowedCudaVersions: ['9.0'] } } });
  assert.equal(refused.ok, false);
  assert.equal(refused.status, 400, 'a CUDA version no host has cannot be placed');
  const cpu = await ok('create-pod', { body: { name: 'mcp-cpu', image: 'busybox:1', startSsh: true, cpu: { id: 'cpu3c', vcpuCount: 4 } } });
  assert.deepEqual(cpu.cpu, { id: 'cpu3c', vcpuCount: 4, memory: 8 }, 'memory = vCPUs times the flavor multiplier (2)');
  assert.equal(cpu.cudaVersion, null);
  assert.ok(validate('pod', cpu).valid && validate('pod-live-fields', cpu).valid);

  const ids = listOf(await ok('list-pods'), 'pods').map((p: Loose) => p.id).sort();
  assert.deepEqual(ids, [gpu.id, exact.id, cpu.id].sort());

  const running = await podIn(gpu.id, 'RUNNING');
  const ssh22 = running.runtime.ports.find((p: Loose) => p.private === 22);
  assert.equal(running.ssh.proxy.port, 22);
  assert.deepEqual([running.ssh.direct.host, running.ssh.direct.port], [ssh22.ip, ssh22.public], 'direct SSH on the public 22/tcp port');
  assert.match(running.ssh.direct.command, new RegExp(`^ssh root@${ssh22.ip} -p ${ssh22.public}`));
  assert.equal(running.runtime.gpus.length, 2);

  const updated = await ok('update-pod', { id: gpu.id, body: { name: 'mcp-gpu-renamed', env: { MODE: 'test' } } });
  assert.equal(updated.name, 'mcp-gpu-renamed');
  assert.deepEqual(updated.env, { MODE: 'test' });
  assert.equal((await call('update-pod', { id: gpu.id, body: { colour: 'blue' } })).status, 400, 'unknown properties are still refused');

  const logs = await ok('stream-pod-logs', { podId: gpu.id, maxWaitMs: 2000 });
  assert.equal(logs.truncated, false);
  assert.equal(logs.count, logs.items.length);
  assert.deepEqual(logs.items.slice(0, 2).map((e: Loose) => e.source), ['system', 'system']);
  assert.match(logs.items[0].line, new RegExp(`^create pod ${gpu.id}: 2 x NVIDIA L40S`));
  assert.ok(logs.items.some((e: Loose) => e.source === 'container' && /sshd/.test(e.line)), 'the SSH daemon started');
  assert.ok(logs.items.every((e: Loose) => !Number.isNaN(Date.parse(e.ts))));
  const containerOnly = await ok('stream-pod-logs', { podId: gpu.id, source: 'container', tail: 2, maxWaitMs: 2000 });
  assert.equal(containerOnly.items.length, 2);
  assert.ok(containerOnly.items.every((e: Loose) => e.source === 'container'));
  assert.equal((await call('stream-pod-logs', { podId: 'pod-none', maxWaitMs: 1000 })).status, 404);

  assert.equal((await ok('pod-action', { id: gpu.id, body: { action: 'stop' } })).status, 'EXITED');
  assert.equal((await call('pod-action', { id: gpu.id, body: { action: 'restart' } })).status, 409, 'restart is not valid for EXITED');
  assert.equal((await ok('pod-action', { id: gpu.id, body: { action: 'start' } })).status, 'PROVISIONING');
  await podIn(gpu.id, 'RUNNING');
  assert.equal((await ok('pod-action', { id: gpu.id, body: { action: 'restart' } })).status, 'STARTING');
  const terminated = await call('pod-action', { id: exact.id, body: { action: 'terminate' } });
  assert.ok(terminated.ok, JSON.stringify(terminated.payload));

  const deleted = await call('delete-pod', { id: cpu.id });
  assert.ok(deleted.ok, JSON.stringify(deleted.payload));
  assert.equal((await call('get-pod', { id: cpu.id })).status, 404);
  assert.ok(!listOf(await ok('list-pods'), 'pods').some((p: Loose) => p.id === cpu.id), 'a deleted pod is no longer listed');
});

test('catalog: GPU types, CPU flavors and data centers, listed and one by one', async () => {
  const gpus = listOf(await ok('list-gpu-types'), 'gpus');
  assert.deepEqual(gpus.map((g: Loose) => g.id).sort(), GPU_TYPES.map((g) => g.id).sort());
  assert.equal((await ok('get-gpu-type', { id: 'NVIDIA L40S' })).id, 'NVIDIA L40S');
  assert.equal((await call('get-gpu-type', { id: 'NVIDIA Nothing' })).status, 404);
  const cpus = listOf(await ok('list-cpu-types'), 'cpus');
  assert.deepEqual(cpus.map((c: Loose) => c.id).sort(), CPU_FLAVORS.map((c) => c.id).sort());
  const cpu3c = await ok('get-cpu-type', { id: 'cpu3c' });
  assert.deepEqual([cpu3c.id, cpu3c.vcpu, cpu3c.ramGbPerVcpu], ['cpu3c', { min: 2, max: 32 }, 2]);
  const dcs = listOf(await ok('list-data-centers'), 'dataCenters');
  assert.deepEqual(dcs.map((d: Loose) => d.id).sort(), DATA_CENTERS.map((d) => d.id).sort());
  const tx = await ok('get-data-center', { id: 'US-TX-3' });
  assert.equal(tx.globalNetwork, DATA_CENTERS.find((d) => d.id === 'US-TX-3')!.globalNetwork);
});

test('network volumes: list, create, get, update, delete', async () => {
  const seededIds = seeded.CPC_NETWORK_VOLUME_IDS.split(',');
  assert.deepEqual(listOf(await ok('list-network-volumes'), 'networkVolumes').map((v: Loose) => v.id).sort(), [...seededIds].sort());
  const created = await ok('create-network-volume', { body: { name: 'mcp-volume', size: 20, dataCenter: 'US-TX-3' } });
  assert.deepEqual([created.name, created.size, created.dataCenter], ['mcp-volume', 20, 'US-TX-3']);
  assert.ok(['STANDARD', 'HIGH_PERFORMANCE'].includes(created.type), 'type defaults to a tier');
  assert.equal((await ok('get-network-volume', { id: created.id })).name, 'mcp-volume');
  assert.equal((await ok('update-network-volume', { id: created.id, body: { name: 'mcp-volume-2', size: 40 } })).size, 40);
  assert.equal((await call('create-network-volume', { body: { name: 'too-small', size: 5, dataCenter: 'US-TX-3' } })).ok, false, 'size 10..4096');
  assert.ok((await call('delete-network-volume', { id: created.id })).ok);
  assert.equal((await call('get-network-volume', { id: created.id })).status, 404);
});

test('serverless job tools: run, get-job-status, runsync, stream-job, cancel-job, retry-job, endpoint-health, purge-endpoint-queue', async () => {
  const endpointId = seeded.CPC_ENDPOINT_ID;
  const run = await ok('run-endpoint', { endpointId, input: { echo: 'mcp', sleepMs: 1000 } });
  assert.equal(run.status, 'IN_QUEUE');
  const done = await ok('get-job-status', { endpointId, jobId: run.id, wait: 5000 });
  assert.equal(done.status, 'COMPLETED');
  assert.deepEqual(done.output, [{ echo: 'mcp', sleepMs: 1000 }]);

  const sync = await ok('runsync-endpoint', { endpointId, input: { n: 7 }, wait: 5000 });
  assert.equal(sync.status, 'COMPLETED');
  assert.deepEqual(sync.output, [{ n: 7 }]);

  const streaming = await ok('run-endpoint', { endpointId, input: { stream: 3, chunkMs: 100 } });
  const streamed = await ok('stream-job', { endpointId, jobId: streaming.id });
  assert.equal(streamed.status, 'COMPLETED');
  assert.deepEqual(streamed.stream.map((s: Loose) => s.output.text), [['token-0 '], ['token-1 '], ['token-2 ']]);

  const slow = await ok('run-endpoint', { endpointId, input: { sleepMs: 3_600_000 } });
  const cancelled = await ok('cancel-job', { endpointId, jobId: slow.id });
  assert.equal(cancelled.status, 'CANCELLED');

  const failing = await ok('run-endpoint', { endpointId, input: { fail: 'boom' } });
  const failed = await ok('get-job-status', { endpointId, jobId: failing.id, wait: 5000 });
  assert.deepEqual([failed.status, failed.error], ['FAILED', 'boom']);
  const retried = await ok('retry-job', { endpointId, jobId: failing.id });
  assert.equal(retried.id, failing.id);
  assert.ok(['IN_QUEUE', 'IN_PROGRESS'].includes(retried.status), `retried: ${retried.status}`);

  const health = await ok('endpoint-health', { endpointId });
  assert.equal(typeof health.jobs.completed, 'number');
  // The two /run jobs stay 30 virtual minutes (18 s here); the runsync result only one.
  assert.ok(health.jobs.completed >= 2, `completed jobs counted: ${JSON.stringify(health.jobs)}`);
  assert.equal(typeof health.workers.idle, 'number');

  const purged = await ok('purge-endpoint-queue', { endpointId });
  assert.equal(typeof purged.removed, 'number');
  assert.equal((await call('get-job-status', { endpointId: 'ep-none', jobId: run.id })).status, 404);
});

test('tools outside the emulator answer a clean error, never a hang or a crash', async () => {
  const seen: Record<string, number | undefined> = {};
  for (const [name, tool] of Object.entries(UNSERVED)) {
    const res = await call(name, tool.args);
    seen[name] = res.status;
    assert.equal(res.ok, false, `${name} cannot succeed on the emulator`);
    assert.equal(res.status, tool.status, `${name}: ${JSON.stringify(res.payload).slice(0, 300)}`);
  }
  assert.equal(Object.keys(seen).length, Object.keys(UNSERVED).length);
  assert.doesNotMatch(stderr, /TypeError|ReferenceError|Unhandled/, 'the server logged no crash');
});
