/**
 * `npm run variants`: the variant matrix. For every conforming variant of the emulator
 * (emulator/variants.ts) and every variant set (`live`), the conformance suite runs with it on
 * (one Playwright run, one project per variant, against one embedded emulator, a world per
 * test) and must fail no MUST rule and no test: a deployment that makes another legal choice
 * passes. Writes `reports/out/variants.json` and prints one line per variant.
 *
 *   npm run variants -- [--variants id,id] [--full] [--sample N [--sample-seed S]] [--property-runs N] [--workers N] [--out DIR]
 *
 * `--full` runs the whole contract and property suite per variant (nightly); by default each
 * variant runs the suites of the surfaces it changes, plus the cross-surface core specs. The
 * properties run `--property-runs` times each (default 50 per variant, 200 with `--full`; the
 * conformance run itself keeps its 200).
 * `--sample N` runs about N entries, a window of the matrix its seed picks (printed, and
 * `--sample-seed` replays it): `npm test` runs a rotating sample, the nightly workflow the whole.
 * Exit code: 0 every variant clean, 1 otherwise, 2 configuration error, 130 interrupted.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../../lib/errors.js';
import { MAX_SEED } from '../../lib/run-config.js';
import { runAsScript } from '../../run/entry.js';
import { PROJECT_ROOT } from '../../run/paths.js';

/** An integer flag within [min, max], or undefined when not given; anything else is a configuration error naming it. */
function integer(value: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(/^\d+$/.test(value) && n >= min && n <= max)) throw new ConfigError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`, flag);
  return n;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, options: {
      variants: { type: 'string' }, full: { type: 'boolean' }, workers: { type: 'string' }, 'property-runs': { type: 'string' }, out: { type: 'string' },
      sample: { type: 'string' }, 'sample-seed': { type: 'string' },
    } });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  const workers = integer(v.workers, '--workers', 1);
  const propertyRuns = integer(v['property-runs'], '--property-runs', 1);
  const sample = integer(v.sample, '--sample', 1);
  const sampleSeed = integer(v['sample-seed'], '--sample-seed', 0, MAX_SEED);
  if (sampleSeed !== undefined && sample === undefined) throw new ConfigError('--sample-seed picks a sample: give --sample N too', '--sample-seed');
  const { runVariantMatrix } = await import('../../run/variants/run.js');
  const { exitCode } = await runVariantMatrix({
    outDir: v.out ?? join(PROJECT_ROOT, 'reports', 'out'),
    variants: v.variants ? v.variants.split(',').map((s) => s.trim()).filter(Boolean) : [],
    ...(v.full ? { full: true } : {}),
    ...(workers ? { workers } : {}),
    ...(propertyRuns ? { propertyRuns } : {}),
    ...(sample ? { sample } : {}),
    ...(sampleSeed !== undefined ? { sampleSeed } : {}),
  });
  return exitCode;
}

runAsScript('variants', import.meta.url, main);
