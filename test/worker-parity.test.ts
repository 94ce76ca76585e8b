// @own-process: runs the contract suite twice, against two worlds of a standalone emulator, one served by worker processes on the official library.
/**
 * Worker parity, the slice that fits the unit tests: the /run, /stream and /cancel contract specs
 * against a standalone emulator's world served by worker/handler.py on the official library (three
 * outside workers) and against a world of it run by its built-in handler, each seen as a deployment.
 * The same MUST verdicts, none failed, at least one decided. The nightly workflow runs the whole
 * serverless suite the same way (`npm run worker-parity`). Skips with the reason where the library
 * is absent.
 *
 * Both sides run without preflight, whose listing of the suite is a Playwright start of its own
 * and whose plan is not what parity compares (test/cli-plan-matches-run.test.ts holds the plan to
 * the run). One Playwright worker a side, as against any deployment: the tests share the world's
 * endpoint, and with two at once the purge-queue test empties the queue another test's job waits
 * in (on the library's workers a job waits there a second or so), which blocks that test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from './reports-support.js';
import { findWorkerLibrary } from '../run/worker-library.js';
import { describeParity, runParity } from '../run/worker-parity.js';

const library = findWorkerLibrary();

test('worker parity: /run, /stream and /cancel give the same MUST verdicts with the built-in handler and with worker/handler.py on the library', { skip: library.found ? false : library.reason, timeout: 300_000 }, async () => {
  if (!library.found) return;
  const { dir, done } = tempDir('worker-parity');
  try {
    const result = await runParity({ grep: 'specs/serverless/(run|stream|cancel)\\.spec', outDir: dir, python: library.python, handler: 'worker/handler.py', workers: 3,
      extraArgs: ['--skip-preflight'] });
    const figures = describeParity(result);
    assert.deepEqual(result.differences, [], figures);
    assert.deepEqual(result.failed, [], figures);
    const decided = Object.values(result.outside.must).filter((v) => v === 'pass').length;
    assert.ok(decided >= 10, `the slice decides MUST rules on the outside workers: ${figures}`);
  } finally {
    done();
  }
});
