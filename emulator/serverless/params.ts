import { fail } from '../http/reply.js';
import type { Ctx } from '../types.js';

/** Spec, Limits: "`wait` range | 1000 to 300000 milliseconds"; "Default wait | 90 seconds". */
export const WAIT_RANGE = { min: 1000, max: 300_000, default: 90_000 } as const;

/** `ttl` on /status, in milliseconds (6000 means 6 seconds); the bounds are the emulator's (CHOICES.md). */
export const TTL_RANGE = { min: 1, max: 86_400_000 } as const;

function integerParam(ctx: Ctx, name: string, min: number, max: number): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null) return undefined;
  const value = /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    fail('validation-failed', `The query parameter ${name} must be an integer from ${min} to ${max} (milliseconds), got "${raw.slice(0, 40)}".`,
      [`?${name}: must be an integer from ${min} to ${max}`]);
  }
  return value;
}

/** How long /runsync (or /status-sync) waits, and whether `wait` was given (retention 5 minutes). */
export function waitParam(ctx: Ctx): { ms: number; given: boolean } {
  const max = ctx.world.fault('serverless.wait-max-120s') ? 120_000 : WAIT_RANGE.max;
  const wait = integerParam(ctx, 'wait', WAIT_RANGE.min, max);
  const fallback = ctx.world.fault('serverless.default-wait-30s') ? 30_000 : WAIT_RANGE.default;
  const ms = ctx.world.fault('serverless.wait-ignored') ? WAIT_RANGE.default : wait ?? fallback;
  return { ms, given: wait !== undefined };
}

export const ttlParam = (ctx: Ctx): number | undefined => integerParam(ctx, 'ttl', TTL_RANGE.min, TTL_RANGE.max);
