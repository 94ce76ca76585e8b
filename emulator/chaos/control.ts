import { fail } from '../http/reply.js';
import { MAX_CHAOS_LATENCY_MS, type ChaosWorldOptions } from '../../lib/chaos/options.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `chaos` member of a world's body: `{seed, key?, realTime?, latencyMs?}` (lib/chaos/options.ts). */
export function parseChaosOption(value: unknown): ChaosWorldOptions | undefined {
  if (value === undefined) return undefined;
  const errors: string[] = [];
  if (!isObject(value)) fail('validation-failed', '`chaos` must be an object {seed, key?, realTime?, latencyMs?}.');
  const c = value as Record<string, unknown>;
  for (const k of Object.keys(c)) if (!['seed', 'key', 'realTime', 'latencyMs'].includes(k)) errors.push(`/chaos/${k}: unknown member`);
  if (!Number.isInteger(c.seed) || (c.seed as number) < 0 || (c.seed as number) > 2 ** 31 - 1) errors.push('/chaos/seed: must be an integer from 0 to 2147483647');
  if (c.key !== undefined && !(typeof c.key === 'string' && c.key.length > 0 && c.key.length <= 200)) errors.push('/chaos/key: must be a string of 1 to 200 characters');
  if (c.realTime !== undefined && typeof c.realTime !== 'boolean') errors.push('/chaos/realTime: must be a boolean');
  if (c.latencyMs !== undefined && !(Number.isInteger(c.latencyMs) && (c.latencyMs as number) >= 0 && (c.latencyMs as number) <= MAX_CHAOS_LATENCY_MS)) errors.push(`/chaos/latencyMs: must be an integer from 0 to ${MAX_CHAOS_LATENCY_MS}`);
  if (errors.length) fail('validation-failed', 'Invalid chaos.', errors);
  return c as unknown as ChaosWorldOptions;
}
