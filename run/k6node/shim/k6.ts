/**
 * The `k6` module on the Node path: `check`, `group`, `sleep`, `fail`, `randomSeed`, with k6's
 * metrics (`checks` tagged with `check` and `group`, `group_duration`).
 */
import { baseTags, blockFor, ctx, emit } from '../worker/context.js';
import { K6ScriptError } from '../../../lib/errors.js';

type Checker<T> = ((value: T) => unknown) | unknown;

export function check<T>(value: T, sets: Record<string, Checker<T>>, tags?: Record<string, string>): boolean {
  let all = true;
  for (const [name, checker] of Object.entries(sets)) {
    const ok = typeof checker === 'function' ? Boolean((checker as (v: T) => unknown)(value)) : Boolean(checker);
    emit('checks', ok ? 1 : 0, { ...baseTags(), ...tags, check: name });
    if (!ok) all = false;
  }
  return all;
}

export function group<T>(name: string, fn: () => T): T {
  if (name.includes('::')) throw new K6ScriptError("group and check names may not contain '::'");
  const parent = ctx.group;
  ctx.group = `${parent}::${name}`;
  const start = performance.now();
  try {
    return fn();
  } finally {
    emit('group_duration', performance.now() - start, baseTags());
    ctx.group = parent;
  }
}

export function sleep(seconds: number): void {
  blockFor(Math.max(0, Number(seconds) * 1000));
}

/** Throws, ending the iteration (k6 logs the message and goes on with the next one). */
export function fail(message?: string): never {
  throw new K6ScriptError(message ?? '');
}

/** Accepted for compatibility; the Node path's `Math.random` is not seeded. */
export function randomSeed(_seed: number): void {}

export default { check, group, sleep, fail, randomSeed };
