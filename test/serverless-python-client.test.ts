// @own-process: runs the official Python client as a process.
// The platform's official Python client (runpod 1.12.0) against the emulator, each call judged as
// its user judges it: the answer the call returns, webhook and policy included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { findWorkerLibrary } from '../run/worker-library.js';
import { plainOutput as ECHO } from '../contract/checks/job-conformance.js';
import { webhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const py = findWorkerLibrary();
let emu: RunningEmulator;
let hooks: WebhookReceiver | undefined;

before(async () => {
  if (!py.found) return;
  emu = await startEmulator({ port: 0 });
  hooks = await webhookReceiver();
});
after(async () => {
  hooks?.close();
  await emu?.close();
});

interface Line { call: string; result?: unknown; raised?: string }

test('runpod (Python): every call right, webhook and policy included', { skip: py.found ? false : py.reason, timeout: 120_000 }, async () => {
  if (!py.found) return;
  // The client polls once a second in real time: 100 virtual ms per real ms keeps the run short.
  const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clock: { mode: 'auto', scale: 100 }, quotas: { minute: 1_000_000 } }) });
  const world = (await res.body.json()) as { keys: { main: string }; seeded: { CPC_ENDPOINT_ID: string } };
  const hook = hooks!.url;
  const child = spawn(py.python, [join(import.meta.dirname, 'fixtures', 'runpod_client_calls.py'), `${emu.url}/v2`, world.keys.main, world.seeded.CPC_ENDPOINT_ID, hook], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const [code] = (await once(child, 'exit')) as [number];
  assert.equal(code, 0, err.slice(-2000));
  const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Line);
  const of = (call: string): unknown => {
    const line = lines.find((l) => l.call === call);
    assert.ok(line, `${call} was not made`);
    assert.equal(line.raised, undefined, `${call} raised ${line.raised}`);
    return line.result;
  };
  const wrong: string[] = [];
  const judge = (call: string, ok: (r: never) => boolean): void => { const r = of(call); if (!ok(r as never)) wrong.push(`${call}: ${JSON.stringify(r).slice(0, 300)}`); };
  judge('run_sync', (r) => JSON.stringify(r) === JSON.stringify(ECHO({ client: 'python' })));
  judge('run', (r: { status: string; output: unknown }) => r.status === 'COMPLETED' && JSON.stringify(r.output) === JSON.stringify(ECHO({ client: 'python', n: 2 })));
  judge('run_sync_webhook', (r) => JSON.stringify(r) === JSON.stringify(ECHO({ hook: 'python' })));
  judge('run_sync_policy_s3', (r) => JSON.stringify(r) === JSON.stringify(ECHO({ policy: 'python' })));
  judge('run_policy_timeout', (r: { status: string }) => r.status === 'TIMED_OUT');
  judge('stream', (r: { text: string[] }[]) => r.length === 3 && r.every((o, i) => o.text[0] === `token-${i} `));
  judge('cancel', (r: { id: string; answer: { id: string; status: string }; status: string }) => r.answer.id === r.id && r.answer.status === 'CANCELLED' && r.status === 'CANCELLED');
  judge('health', (r: { jobs: { completed: number }; workers: { idle?: number } }) => r.jobs.completed >= 5 && typeof r.workers.idle === 'number');
  judge('purge_queue', (r: { removed: number; status: string }) => r.removed === 0 && r.status === 'completed');
  assert.deepEqual(wrong, [], `${lines.length - wrong.length} of ${lines.length} calls right`);
  assert.equal(lines.length, 9);
  const hooked = hooks!.bodies.find((b) => JSON.stringify(b.output) === JSON.stringify(ECHO({ hook: 'python' })));
  assert.ok(hooked, `the webhook got the job's /status body: ${JSON.stringify(hooks!.bodies).slice(0, 300)}`);
  assert.equal(hooked.status, 'COMPLETED');
});
