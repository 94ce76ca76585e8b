// @own-process: runs worker/handler.py on the official worker library, a Python process per mode.
/**
 * The conformance worker on the real library (runpod 1.12.0): for every example row of
 * emulator/serverless/HANDLER.md, `worker/handler.py` runs as a real worker process against a
 * loopback job server that hands out the row's job and records the worker's job-stream and
 * job-done posts; each row's documented result holds exactly, and the emulator's built-in handler
 * yields the same values and ends the same way. The library's local test mode is held to what
 * HANDLER.md says of it. Skips with the reason where the library is absent.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { findWorkerLibrary, TEST_WORKER_ENV, WORKER_HANDLER } from '../run/worker-library.js';
import { planJob } from '../emulator/serverless/handler.js';
import { chunkTextBytes } from '../emulator/serverless/stream-items.js';
import { startJobServer } from './worker-job-server.js';
import { handlerRows } from './handler-rows.js';

const library = findWorkerLibrary();
const rows = handlerRows();

// The worker test and the local-mode test run at once: neither waits on the other's processes.
describe('worker on the library', { concurrency: true }, () => {
  test('HANDLER.md lists its example rows, each of a status the worker can produce', () => {
    assert.ok(rows.length >= 8, `HANDLER.md's examples table has ${rows.length} rows`);
    for (const r of rows) assert.ok(['COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED'].includes(r.status), JSON.stringify(r));
  });

  test('every example row of HANDLER.md, run by worker/handler.py on the official library, gives exactly the documented result', { skip: library.found ? false : library.reason, timeout: 120_000 }, async () => {
    if (!library.found) return;
    const server = await startJobServer();
    const worker = spawn(library.python, ['-u', WORKER_HANDLER], { env: { ...process.env, ...TEST_WORKER_ENV, ...server.workerEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    worker.stdout.on('data', (d: Buffer) => { log += d.toString(); });
    worker.stderr.on('data', (d: Buffer) => { log += d.toString(); });
    try {
      for (const [n, row] of rows.entries()) {
        const where = `row ${n + 1} ${JSON.stringify(row.input)}`;
        const run = await server.run(`job-${n + 1}`, row.input, row.then === 'cancel' ? 'at-start' : row.then === 'execution timeout' ? row.items : undefined);
        const posted = run.items.map((i) => i as { output?: unknown });
        assert.ok(posted.every((i) => Object.keys(i).join() === 'output'), `${where}: each stream post is {output: v}: ${JSON.stringify(posted).slice(0, 200)}`);
        const values = posted.map((i) => i.output);
        assert.equal(values.length, row.items, `${where}: ${values.length} stream items, documented ${row.items}`);
        const done = run.done as { output?: unknown; error?: unknown } | undefined;
        const status = done === undefined ? (row.then === 'cancel' ? 'CANCELLED' : 'TIMED_OUT') : done.error !== undefined ? 'FAILED' : 'COMPLETED';
        assert.equal(status, row.status, `${where}: the worker's answer ${JSON.stringify(done)?.slice(0, 200)} makes the job ${status}`);
        if (done) assert.deepEqual(Object.keys(done), status === 'FAILED' ? ['error'] : ['output'], `${where}: job-done posted ${JSON.stringify(done).slice(0, 200)}`);
        assert.equal(done?.error, row.error, `${where}: error`);
        const expectedOutput = row.output === 'none' ? undefined : row.output === 'items' ? values : row.output;
        assert.deepEqual(done?.output, expectedOutput, `${where}: output`);
        // The emulator's built-in handler: the same values (for the items the row lets run) and the same end.
        const plan = planJob(row.input, chunkTextBytes());
        assert.deepEqual(values, plan.yields.slice(0, values.length), `${where}: the emulator's handler yields other values`);
        assert.equal(plan.end.kind === 'fail' ? plan.end.error : undefined, row.error, `${where}: the emulator's handler ends ${JSON.stringify(plan.end).slice(0, 120)}`);
        assert.equal(plan.end.kind, row.status === 'FAILED' ? 'fail' : row.status === 'TIMED_OUT' ? 'timeout' : 'complete', `${where}: the emulator's handler's end`);
      }
      assert.ok(server.authorized(), 'every worker request carries RUNPOD_AI_API_KEY as its Authorization header');
    } catch (error) {
      throw new Error(`${(error as Error).message}\nworker log (tail):\n${log.slice(-2000)}`, { cause: error });
    } finally {
      worker.kill('SIGKILL');
      await server.close();
    }
  });

  // The library's local mode runs a job through its plain path only: a generator handler's job
  // "completes" with an un-run generator as output, whatever the input (HANDLER.md says so). Two
  // rows show it, a succeeding one and a failing one, each in a process of its own, both at once
  // and beside the worker test above (local mode asks no job server).
  test('the library\'s local test mode never runs the generator: every job "completes" with an un-run generator', { skip: library.found ? false : library.reason, timeout: 60_000 }, async () => {
    if (!library.found) return;
    await Promise.all([rows[0]!.input, rows.find((row) => row.status === 'FAILED')!.input].map(async (input) => {
      const { code, out } = await localRun(library.python, input);
      assert.equal(code, 0, out);
      assert.match(out, /Job local_test completed successfully/, out);
      assert.match(out, /Job result: \{'output': <async_generator object handler at /, out);
    }));
  });
});

/** `handler.py --test_input {input}`: the library's local mode, its exit code and output (killed after 50 s). */
async function localRun(python: string, input: unknown): Promise<{ code: number | null; out: string }> {
  const child = spawn(python, ['-u', WORKER_HANDLER, '--test_input', JSON.stringify({ input })], { env: { ...process.env, ...TEST_WORKER_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, out };
}
