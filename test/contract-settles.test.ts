import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settlesWithin } from '../contract/specs/serverless/support/jobs.js';

// The "answered no later than" checks of the job suites and the job model: `settlesWithin` must
// answer as soon as the request settles (no polling step added to every check) and false only
// once its whole window has passed. The checks compare the order of events (a settled request
// is answered before the next turn of the event loop), never durations against a bound.

/** Resolves on the next turn of the event loop: after every pending promise job, before any timer. */
const nextTurn = (): Promise<'next turn'> => new Promise((r) => setImmediate(() => r('next turn')));

test('a request that already settled, resolved or rejected, is answered true within the same turn', async () => {
  assert.equal(await Promise.race([settlesWithin(Promise.resolve('answer'), 300), nextTurn()]), true);
  assert.equal(await Promise.race([settlesWithin(Promise.reject(new Error('socket closed')), 300), nextTurn()]), true);
});

test('a request that settles inside the window is answered true at that moment, not at the end of the window', async () => {
  let answer!: () => void;
  const request = new Promise<void>((r) => { answer = r; });
  const within = settlesWithin(request, 60_000);
  assert.equal(await Promise.race([within, nextTurn()]), 'next turn', 'not answered while the request is pending');
  answer();
  assert.equal(await Promise.race([within, nextTurn()]), true, 'answered as the request settled, long before the 60 s window ends');
});

test('a request still pending when the window ends is answered false once the window has passed', async () => {
  const started = performance.now();
  assert.equal(await settlesWithin(new Promise<void>(() => undefined), 30), false);
  // Not before the window (a margin for the event loop's clock, which counts whole milliseconds from the loop's last turn).
  assert.ok(performance.now() - started >= 25, `answered after ${performance.now() - started} ms`);
});

test('a request settling after its window ended does not change the answer', async () => {
  const late = new Promise<void>((r) => setTimeout(r, 60));
  assert.equal(await settlesWithin(late, 20), false);
  await late;
});
