import { randomInt } from 'node:crypto';
import { ConfigError } from '../../lib/errors.js';

/** Seeds are 31-bit non-negative integers: fast-check and every worker agree on them. */
export const MAX_SEED = 2 ** 31 - 1;

/**
 * The run's seed: `CPC_SEED` when given (a replay), else a fresh random one chosen once
 * here, so Playwright and every worker inherit the same value and the report records it.
 */
export function chooseSeed(given: string | undefined): number {
  if (given === undefined || given.trim() === '') return randomInt(0, MAX_SEED + 1);
  const seed = Number(given.trim());
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) throw new ConfigError(`CPC_SEED must be an integer from 0 to ${MAX_SEED}, got "${given}"`, 'CPC_SEED');
  return seed;
}

const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The command that replays a run: same seed, same selection, target from the environment. */
export function replayCommand(seed: number, args: readonly string[]): string {
  return `CPC_SEED=${seed} npm run conformance${args.length ? ` -- ${args.map(shellWord).join(' ')}` : ''}`;
}
