import { fail } from '../http/reply.js';
import { chaosProblems, CHAOS_MEMBERS, type ChaosWorldOptions } from '../../lib/chaos/options.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `chaos` member of a world's body: `{seed, key?, ...}`, checked against the chaos options' one table (lib/chaos/options.ts). */
export function parseChaosOption(value: unknown): ChaosWorldOptions | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail('validation-failed', `\`chaos\` must be an object {seed, key?${CHAOS_MEMBERS.map((m) => `, ${m.member}?`).join('')}}.`);
  const errors = chaosProblems(value as Record<string, unknown>);
  if (errors.length) fail('validation-failed', 'Invalid chaos.', errors);
  return value as unknown as ChaosWorldOptions;
}
