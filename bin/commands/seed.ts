import { randomInt } from 'node:crypto';
import { ConfigError } from '../../lib/errors.js';
import { INSTALLED } from '../paths.js';

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

/**
 * The command that replays a run: same seed, same selection, target from the environment
 * (`npx cpc conformance` from an installed package, the npm script from a clone).
 */
export function replayCommand(seed: number, args: readonly string[], installed = INSTALLED): string {
  const words = args.map(shellWord).join(' ');
  if (installed) return `CPC_SEED=${seed} npx cpc conformance${words ? ` ${words}` : ''}`;
  return `CPC_SEED=${seed} npm run conformance${words ? ` -- ${words}` : ''}`;
}
