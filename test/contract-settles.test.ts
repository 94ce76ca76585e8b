import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settlesWithin } from '../contract/specs/serverless/support/jobs.js';

// The "answered no later than" checks of the job suites and the job model: `settlesWithin` must
// answer as soon as the request settles (no polling step added to every check) and false only
// once its whole window has passed. Timers are Node's mock timers: nothing here waits.

/** Whether `p` has settled by now (after the pending microtasks ran). */
async function settledYet(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => { done = true; });
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

test('a request that already settled, resolved or rejected, is answered true without any time passing', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const ok = settlesWithin(Promise.resolve('answer'), 300);
  const failed = settlesWithin(Promise.reject(new Error('socket closed')), 300);
  assert.equal(await settledYet(ok), true);
  assert.equal(await ok, true);
  assert.equal(await failed, true);
});

test('a request that settles inside the window is answered true at that moment, not at the end of the window', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let answer!: () => void;
  const request = new Promise<void>((r) => { answer = r; });
  const within = settlesWithin(request, 3_000);
  t.mock.timers.tick(40);
  assert.equal(await settledYet(within), false);
  answer();
  assert.equal(await settledYet(within), true, 'answered as the request settled, 40 ms into a 3 s window');
  assert.equal(await within, true);
});

test('a request still pending when the window ends is answered false, and not a tick before', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const never = new Promise<void>(() => undefined);
  const within = settlesWithin(never, 300);
  t.mock.timers.tick(299);
  assert.equal(await settledYet(within), false);
  t.mock.timers.tick(1);
  assert.equal(await within, false);
});

test('a request settling after its window ended does not change the answer', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let answer!: () => void;
  const late = new Promise<void>((r) => { answer = r; });
  const within = settlesWithin(late, 100);
  t.mock.timers.tick(100);
  answer();
  assert.equal(await within, false);
});
