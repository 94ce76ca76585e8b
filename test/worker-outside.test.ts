// @own-process: runs worker/handler.py on the official worker library as outside workers of the emulator.
/**
 * The conformance worker as the platform's workers run: `worker/handler.py` on the official library
 * (runpod 1.12.0), three processes taking jobs from an emulator world served by outside workers,
 * through the worker side the library speaks (job take, job-stream, job-done, job-stop, ping).
 * Every example row of emulator/serverless/HANDLER.md, submitted through the client API, gives
 * exactly the documented result: status, `error`, stream items, `output`, cancels and execution
 * timeouts included. Skips with the reason where the library is absent.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { workerEnv } from '../emulator/serverless/worker-env.js';
import { findWorkerLibrary, TEST_WORKER_ENV, WORKER_HANDLER } from '../run/worker-library.js';
import { handlerRows, type Row } from './handler-rows.js';
import { startPrinting } from '../run/standalone.js';

const library = findWorkerLibrary();
/** The world's execution timeout: long enough for every other row, short enough to wait for in real time. */
const EXECUTION_TIMEOUT_MS = 4_000;

let emu: RunningEmulator;
let key: string;
let endpointId: string;
const workers: ChildProcess[] = [];
let logs = '';

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, control = false): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${emu.url}${control ? '/__emulator' : `/v2/${endpointId}`}${path}`, {
    method, headers: { authorization: key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

before(async () => {
  if (!library.found) return;
  emu = await startEmulator({ port: 0 });
  key = '';
  const made = await call('POST', '/worlds', { outsideWorkers: true, quotas: { minute: 1_000_000 } }, true);
  const world = made.body as { id: string; keys: { main: string }; seeded: { CPC_ENDPOINT_ID: string } };
  key = world.keys.main;
  endpointId = world.seeded.CPC_ENDPOINT_ID;
  assert.equal((await call('PUT', `/worlds/${world.id}/timings`, { executionTimeoutMs: EXECUTION_TIMEOUT_MS }, true)).status, 200);
  for (let i = 1; i <= 3; i++) {
    const env = { ...process.env, ...TEST_WORKER_ENV, ...workerEnv(emu.url, endpointId, key, 'AMPERE_16', `handler-${i}`) };
    const worker = spawn(library.python, ['-u', WORKER_HANDLER], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    worker.stdout!.on('data', (d: Buffer) => { logs += d.toString(); });
    worker.stderr!.on('data', (d: Buffer) => { logs += d.toString(); });
    workers.push(worker);
  }
});
after(async () => {
  for (const w of workers) try { process.kill(-w.pid!, 'SIGKILL'); } catch { /* gone */ }
  await emu?.close();
});

/** Reads /status until the job ends (real time: the workers run in it). */
async function ended(id: string): Promise<Record<string, unknown>> {
  for (;;) {
    const res = await call('GET', `/status-sync/${id}?wait=60000`);
    if (!['IN_QUEUE', 'IN_PROGRESS'].includes(res.body.status as string)) return res.body;
  }
}

/** One row through the client API: submitted, cancelled once running if the row says so, read once ended. */
async function runRow(row: Row): Promise<{ job: Record<string, unknown>; items: { output: unknown; metrics?: unknown }[] }> {
  const id = (await call('POST', '/run', { input: row.input })).body.id as string;
  if (row.then === 'cancel') {
    while ((await call('GET', `/status/${id}`)).body.status !== 'IN_PROGRESS') await new Promise((r) => setTimeout(r, 50));
    assert.equal((await call('POST', `/cancel/${id}`)).body.status, 'CANCELLED');
  }
  const job = await ended(id);
  const items = (await call('GET', `/stream/${id}`)).body.stream as { output: unknown; metrics?: unknown }[];
  return { job, items };
}

test('every example row of HANDLER.md, run by worker/handler.py on the library as outside workers, gives the documented result', { skip: library.found ? false : library.reason, timeout: 180_000 }, async () => {
  const rows = handlerRows();
  assert.ok(rows.some((r) => r.then === 'cancel') && rows.some((r) => r.then === 'execution timeout'), 'the table has a cancel row and a timeout row');
  const wrong: string[] = [];
  const results = await Promise.all(rows.map(async (row) => ({ row, ...(await runRow(row)) })));
  for (const { row, job, items } of results) {
    const where = `${JSON.stringify(row.input)}${row.then ? ` then ${row.then}` : ''}`;
    const expectedOutput = row.output === 'none' ? undefined : row.output === 'items' ? items.map((i) => i.output) : row.output;
    const seen = { status: job.status, error: job.error, items: items.length, output: job.output };
    const documented = { status: row.status, error: row.error, items: row.items, output: expectedOutput };
    if (JSON.stringify(seen) !== JSON.stringify(documented)) wrong.push(`${where}: ${JSON.stringify(seen).slice(0, 300)}, documented ${JSON.stringify(documented).slice(0, 300)}`);
    if (!items.every((i) => typeof i.metrics === 'object' && i.metrics !== null)) wrong.push(`${where}: an item without the platform's metrics`);
  }
  assert.deepEqual(wrong, [], `worker log (tail):\n${logs.slice(-2000)}`);
  // The cancelled and timed-out jobs were stopped on their workers, which are free again.
  const health = (await call('GET', '/health')).body as { workers: { idle: number; running: number } };
  assert.deepEqual({ running: health.workers.running, idle: health.workers.idle }, { running: 0, idle: 3 });
  assert.match(logs, /Stopping job\./, 'the library was told to stop a job (job-stop)');
});

test('cpc emulator --outside-workers prints the RUNPOD_* variables, and a job take made with them gets a job sent through the client API', async () => {
  const standalone = await startPrinting(['emulator/main.ts', '--port', '0', '--outside-workers']);
  try {
    const v = standalone.vars;
    for (const name of ['RUNPOD_WEBHOOK_GET_JOB', 'RUNPOD_WEBHOOK_POST_OUTPUT', 'RUNPOD_WEBHOOK_POST_STREAM', 'RUNPOD_WEBHOOK_PING', 'RUNPOD_AI_API_KEY', 'RUNPOD_POD_ID']) assert.ok(v[name], `${name} printed`);
    assert.equal(v.RUNPOD_AI_API_KEY, v.CPC_API_KEY);
    const run = await request(`${standalone.url}/v2/${v.CPC_ENDPOINT_ID}/run`, { method: 'POST', headers: { authorization: `Bearer ${v.CPC_API_KEY}`, 'content-type': 'application/json' }, body: '{"input":{"n":1}}' });
    const id = ((await run.body.json()) as { id: string }).id;
    // As the library builds it: `$ID` replaced by the worker id, `&job_in_progress=` appended.
    const take = await request(`${v.RUNPOD_WEBHOOK_GET_JOB!.replace('$ID', 'worker-1')}&job_in_progress=0`, { headers: { authorization: v.RUNPOD_AI_API_KEY! } });
    assert.equal(take.statusCode, 200);
    assert.deepEqual(await take.body.json(), { id, input: { n: 1 } });
  } finally {
    await standalone.stop();
  }
});
