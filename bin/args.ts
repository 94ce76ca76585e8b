import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../lib/errors.js';
import { ENV_VARS, flagOf, type ConfigKey } from '../lib/config.js';
import type { Budgets } from '../lib/plan.js';
import { USAGE, USAGES } from './usage.js';

// The commands' shared arguments: strict parsing with the command's usage on an error, the
// target flags, the budgets.

export const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: T, positionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: positionals });
  } catch (e) {
    throw new UsageError((e as Error).message, USAGES[command] ?? USAGE);
  }
}

export const targetOptions = Object.fromEntries((Object.keys(ENV_VARS) as ConfigKey[]).map((k) => [flagOf(k), { type: 'string' as const }]));

export function targetFlags(values: Record<string, unknown>): Partial<Record<ConfigKey, string>> {
  const flags: Partial<Record<ConfigKey, string>> = {};
  for (const k of Object.keys(ENV_VARS) as ConfigKey[]) {
    const value = values[flagOf(k)];
    if (typeof value === 'string') flags[k] = value;
  }
  return flags;
}

/** `--worker-image`: the profile's `workerImage` (lib/profile.ts reads it as CPC_WORKER_IMAGE, where the flag wins). */
export const workerImageOption = { 'worker-image': { type: 'string' } } as const;

/** Hands `--worker-image` to the profile as its variable, so the profile alone decides it. */
export function applyWorkerImageFlag(v: Record<string, unknown>): void {
  if (typeof v['worker-image'] === 'string') process.env.CPC_WORKER_IMAGE = v['worker-image'];
}

export const budgetOptions = { 'max-pods': { type: 'string' }, 'max-gpu-pods': { type: 'string' }, 'max-requests': { type: 'string' }, 'max-cost': { type: 'string' } } as const;

/** `--max-pods`, `--max-gpu-pods`, `--max-requests`, `--max-cost` (each wins over the profile's). */
export async function budgetFlags(v: Record<string, unknown>): Promise<Budgets> {
  const { parseBudget } = await import('../lib/profile.js');
  const out: Budgets = {};
  for (const [flag, field] of [['max-pods', 'pods'], ['max-gpu-pods', 'gpuPods'], ['max-requests', 'requests'], ['max-cost', 'costUsd']] as const) {
    if (typeof v[flag] === 'string') out[field] = parseBudget(field, v[flag], `--${flag}`, `--${flag}`);
  }
  return out;
}
