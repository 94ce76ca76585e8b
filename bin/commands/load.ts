/**
 * `npm run load` (also `cpc load`): the load scenarios against the target, the embedded emulator
 * by default (run/load.ts runs them).
 *
 *   npm run load -- [--runner auto|k6|node] [--scenario NAME ...] [--out DIR] [--segments N] [--base-url URL ...]
 *
 * Exit code: 0 when every scenario passed; k6's code otherwise (99: a threshold failed).
 */
import { parseArgs } from 'node:util';
import { ENV_VARS, flagOf, type ConfigKey } from '../../lib/config.js';
import { ConfigError } from '../../lib/errors.js';
import { runAsScript } from '../../run/entry.js';
import { runLoadScenarios, type LoadRunOptions } from '../../run/load.js';

async function main(argv: string[]): Promise<number> {
  const targetOptions = Object.fromEntries((Object.keys(ENV_VARS) as ConfigKey[]).map((k) => [flagOf(k), { type: 'string' as const }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...targetOptions, runner: { type: 'string' }, scenario: { type: 'string', multiple: true }, out: { type: 'string' }, segments: { type: 'string' } }, strict: true });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values as Record<string, string | string[] | undefined>;
  const flags: Partial<Record<ConfigKey, string>> = {};
  for (const k of Object.keys(ENV_VARS) as ConfigKey[]) if (typeof v[flagOf(k)] === 'string') flags[k] = v[flagOf(k)] as string;
  const result = await runLoadScenarios({
    flags, ...(typeof v.out === 'string' ? { outDir: v.out } : {}), ...(v.scenario ? { scenarios: v.scenario as string[] } : {}),
    ...(typeof v.runner === 'string' ? { runner: v.runner as LoadRunOptions['runner'] } : {}),
    ...(typeof v.segments === 'string' ? { segments: Number(v.segments) } : {}),
  });
  return result.exitCode;
}

runAsScript('load', import.meta.url, main);
