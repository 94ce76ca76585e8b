import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../emulator/clock.js';

test('manual clock fires due timers in time order, then stops at the target', () => {
  const clock = new VirtualClock(1000);
  const fired: string[] = [];
  clock.at(1500, () => fired.push('b'));
  clock.at(1200, () => fired.push('a'));
  clock.at(5000, () => fired.push('late'));
  assert.equal(clock.advance(1000), 2000);
  assert.deepEqual(fired, ['a', 'b']);
  assert.equal(clock.now(), 2000);
  assert.equal(clock.pending(), 1);
});

test('a timer sees the clock at its own time, and timers it schedules inside the advance fire too', () => {
  const clock = new VirtualClock(0);
  const seen: number[] = [];
  clock.at(100, () => { seen.push(clock.now()); clock.at(150, () => seen.push(clock.now())); });
  clock.advance(200);
  assert.deepEqual(seen, [100, 150]);
});

test('cancelled timers never fire; equal times keep insertion order', () => {
  const clock = new VirtualClock(0);
  const fired: number[] = [];
  const h = clock.at(10, () => fired.push(0));
  clock.at(10, () => fired.push(1));
  clock.at(10, () => fired.push(2));
  h.cancel();
  clock.advance(10);
  assert.deepEqual(fired, [1, 2]);
});

test('auto mode follows real time times the scale and fires timers without advance()', async () => {
  const clock = new VirtualClock(0, { mode: 'auto', scale: 1000 });
  const started = clock.now();
  await clock.sleep(2000); // 2 s virtual = ~2 ms real
  assert.ok(clock.now() - started >= 2000);
  clock.dispose();
});

test('switching modes keeps time continuous', () => {
  const clock = new VirtualClock(500);
  clock.configure({ mode: 'auto', scale: 1 });
  const real = performance.now();
  const t = clock.now();
  clock.configure({ mode: 'manual' });
  const after = clock.now();
  // No jump: at scale 1 the clock moved at most as far as real time did (plus its whole-millisecond floor).
  assert.ok(after >= t && after - t <= performance.now() - real + 1, `moved ${after - t} ms`);
  clock.dispose();
});

test('many timers stay ordered (heap)', () => {
  const clock = new VirtualClock(0);
  const fired: number[] = [];
  const times = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
  for (const t of times) clock.at(t, () => fired.push(t));
  clock.advance(1000);
  assert.deepEqual(fired, [...times].sort((a, b) => a - b));
});
