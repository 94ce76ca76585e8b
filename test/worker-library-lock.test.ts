// The worker library's environment is installed by one process at a time (run/worker-library.ts,
// underLock): the others wait for it instead of installing the same environment at once; a lock
// left by a process that died is taken over; the lock is gone once the install ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { underLock } from '../run/worker-library.js';
import { tempDir } from './reports-support.js';

test('worker library lock: the first process installs and lets the lock go', () => {
  const { dir, done } = tempDir('lock-first');
  try {
    const lock = join(dir, 'venv.lock');
    let made = 0;
    underLock(lock, () => false, () => { made += 1; assert.ok(existsSync(lock), 'the install runs holding the lock'); });
    assert.equal(made, 1);
    assert.equal(existsSync(lock), false, 'the lock is gone after the install');
  } finally {
    done();
  }
});

test('worker library lock: a process that finds the lock held waits for the environment instead of installing it again', () => {
  const { dir, done } = tempDir('lock-held');
  try {
    const lock = join(dir, 'venv.lock');
    mkdirSync(lock);
    let asked = 0;
    let made = 0;
    // The holder finishes while this process waits: the environment is ready on the third look.
    underLock(lock, () => ++asked >= 3, () => { made += 1; });
    assert.equal(made, 0, 'no second install');
    assert.ok(asked >= 3, `it looked ${asked} times`);
    assert.equal(existsSync(lock), true, 'the holder\'s lock is left to the holder');
  } finally {
    done();
  }
});

test('worker library lock: a lock older than the wait (its process died) is taken over', () => {
  const { dir, done } = tempDir('lock-stale');
  try {
    const lock = join(dir, 'venv.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(lock, old, old);
    let made = 0;
    underLock(lock, () => false, () => { made += 1; });
    assert.equal(made, 1, 'installed once, after taking the stale lock over');
    assert.equal(existsSync(lock), false);
  } finally {
    done();
  }
});

test('worker library lock: a lock that cannot be made (not a held lock) is an error, never an endless wait', () => {
  const { dir, done } = tempDir('lock-error');
  try {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    assert.throws(() => underLock(join(file, 'venv.lock'), () => false, () => { throw new Error('never made'); }), /ENOTDIR/);
  } finally {
    done();
  }
});
