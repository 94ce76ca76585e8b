/**
 * `npm run variants`: the variant matrix. For every conforming variant of the emulator
 * (emulator/variants.ts) and every variant set (`live`), the conformance suite runs with it on
 * (one Playwright run, one project per variant, against one embedded emulator, a world per
 * test) and must fail no MUST rule and no test: a deployment that makes another legal choice
 * passes. Writes `reports/out/variants.json` and prints one line per variant.
 *
 *   npm run variants -- [--variants id,id] [--full] [--property-runs N] [--workers N] [--out DIR]
 *
 * `--full` runs the whole contract and property suite per variant (nightly); by default each
 * variant runs the suites of the surfaces it changes, plus the cross-surface core specs. The
 * properties run `--property-runs` times each (default 50 per variant, 200 with `--full`; the
 * conformance run itself keeps its 200).
 * Exit code: 0 every variant clean, 1 otherwise, 2 configuration error, 130 interrupted.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { expandVariants } from '../../emulator/variants.js';
import { ConfigError } from '../../lib/errors.js';
import { runAsScript } from '../../run/entry.js';
import { loadRules } from '../../lib/rules.js';
import { readRaw } from '../../reports/raw-read.js';
import { buildVariantPlan } from '../../run/variants/plan.js';
import { buildVariantMatrix, variantMatrixPasses, variantMatrixText, type VariantMatrix } from '../../run/variants/matrix.js';
import { parseEmbeddedRunConfig } from '../../lib/run-config.js';
import { startEmbedded } from '../../run/embedded.js';
import { DOT_REPORTERS, PROJECT_ROOT } from '../../run/paths.js';
import { runSupervised } from '../../run/supervise.js';

export interface VariantRunOptions {
  outDir: string;
  /** Variant ids or set names; default: the whole catalog and every set. */
  variants: string[];
  full?: boolean;
  workers?: number;
  /** Runs per property and variant (CPC_PROPERTY_RUNS of the run). */
  propertyRuns?: number;
}

/** Runs per property in the matrix of `npm test`: every variant meets every property, at a quarter of a conformance run's 200. */
export const MATRIX_PROPERTY_RUNS = 50;

export async function runVariantMatrix(options: VariantRunOptions): Promise<{ matrix: VariantMatrix; exitCode: number }> {
  const unknown = expandVariants(options.variants).unknown;
  if (unknown.length) throw new ConfigError(`unknown variant(s): ${unknown.join(', ')}`);
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, 'variants-raw');
  rmSync(rawDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const plan = buildVariantPlan(options.variants, options.full ?? false);
  const planFile = join(outDir, 'variants-plan.json');
  writeFileSync(planFile, JSON.stringify(plan, null, 2) + '\n');
  const propertyRuns = options.propertyRuns ?? (options.full ? 200 : MATRIX_PROPERTY_RUNS);
  const given = parseEmbeddedRunConfig(process.env);
  const started = Date.now();
  const emulator = await startEmbedded();
  let run;
  try {
    // Each project (entry) sets its own variants on in its worlds; no fault and no run-wide variant.
    // Playwright's artifacts in a folder of their own, so that the detection matrix or a
    // conformance run can go on beside this one.
    run = await runSupervised([DOT_REPORTERS, `--output=${join(outDir, 'variants-artifacts')}`, ...(options.workers ? [`--workers=${options.workers}`] : [])],
      { ...given, target: emulator.target, faults: [], variants: [], plan: { kind: 'variants', file: planFile }, rawDir, propertyRuns, ...(options.workers ? { workers: options.workers } : {}) });
  } finally {
    await emulator.close();
  }
  const must = new Set(loadRules().filter((r) => r.level === 'MUST').map((r) => r.id));
  const matrix = buildVariantMatrix(plan, readRaw(rawDir).tests, must, Date.now() - started, propertyRuns);
  writeFileSync(join(outDir, 'variants.json'), JSON.stringify(matrix, null, 2) + '\n');
  process.stdout.write('\n' + variantMatrixText(matrix) + '\n');
  if (run.interruptedBy) return { matrix, exitCode: 130 };
  return { matrix, exitCode: variantMatrixPasses(matrix) ? 0 : 1 };
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { variants: { type: 'string' }, full: { type: 'boolean' }, workers: { type: 'string' }, 'property-runs': { type: 'string' }, out: { type: 'string' } }, strict: true });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${v.workers}"`);
  const propertyRuns = v['property-runs'] === undefined ? undefined : Number(v['property-runs']);
  if (propertyRuns !== undefined && !(Number.isInteger(propertyRuns) && propertyRuns > 0)) throw new ConfigError(`--property-runs must be a positive integer, got "${v['property-runs']}"`);
  const { exitCode } = await runVariantMatrix({
    outDir: v.out ?? join(PROJECT_ROOT, 'reports', 'out'),
    variants: v.variants ? v.variants.split(',').map((s) => s.trim()).filter(Boolean) : [],
    ...(v.full ? { full: true } : {}),
    ...(workers ? { workers } : {}),
    ...(propertyRuns ? { propertyRuns } : {}),
  });
  return exitCode;
}

runAsScript('variants', import.meta.url, main);
