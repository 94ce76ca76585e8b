/**
 * The variant matrix's run (`npm run variants`, bin/commands/variants.ts): the plan (./plan.ts),
 * whole or a seeded sample, run by Playwright against one embedded emulator, its results read
 * into the matrix (./matrix.ts) and written to `variants.json`.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkEmulatorSettings } from '../emulator-settings.js';
import { loadRules } from '../../lib/rules.js';
import { readRaw } from '../../reports/raw-read.js';
import { buildVariantPlan, sampleVariantPlan } from './plan.js';
import { buildVariantMatrix, variantMatrixPasses, variantMatrixText, type VariantMatrix } from './matrix.js';
import { MAX_SEED, parseEmbeddedRunConfig } from '../../lib/run-config.js';
import { startEmbedded } from '../embedded.js';
import { DOT_REPORTERS } from '../paths.js';
import { runSupervised } from '../supervise.js';

export interface VariantRunOptions {
  outDir: string;
  /** Variant ids or set names; default: the whole catalog and every set. */
  variants: string[];
  full?: boolean;
  workers?: number;
  /** Runs per property and variant (CPC_PROPERTY_RUNS of the run). */
  propertyRuns?: number;
  /** Run a sample of about this many entries (./plan.ts `sampleVariantPlan`), picked by `sampleSeed`. */
  sample?: number;
  /** The sample's seed; default: a fresh one, printed. */
  sampleSeed?: number;
}

/** Runs per property in the matrix of `npm test`: every variant meets every property, at a quarter of a conformance run's 200. */
export const MATRIX_PROPERTY_RUNS = 50;

/** The matrix (or its sample) run once, written to `variants.json` and printed; exit 0 when every entry is clean. */
export async function runVariantMatrix(options: VariantRunOptions): Promise<{ matrix: VariantMatrix; exitCode: number }> {
  checkEmulatorSettings({ faults: [], variants: options.variants, from: { variants: '--variants' } });
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, 'variants-raw');
  rmSync(rawDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const whole = buildVariantPlan(options.variants, options.full ?? false);
  const sampled = options.sample === undefined ? undefined : sampleVariantPlan(whole, options.sample, options.sampleSeed ?? randomInt(0, MAX_SEED + 1));
  const plan = sampled?.plan ?? whole;
  if (sampled) {
    const s = sampled.sample;
    process.stdout.write(`variant sample: seed ${s.seed}, window ${s.window + 1} of ${s.windows}: ${plan.entries.map((e) => e.name).join(', ')}\n`
      + `  (replay: npm run variants -- --sample ${options.sample} --sample-seed ${s.seed}; one variant alone: npm run variants -- --variants <name>; the whole matrix: npm run variants)\n`);
  }
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
  const matrix = { ...buildVariantMatrix(plan, readRaw(rawDir).tests, must, Date.now() - started, propertyRuns), ...(sampled ? { sample: sampled.sample } : {}) };
  writeFileSync(join(outDir, 'variants.json'), JSON.stringify(matrix, null, 2) + '\n');
  process.stdout.write('\n' + variantMatrixText(matrix) + '\n');
  if (run.interruptedBy) return { matrix, exitCode: 130 };
  return { matrix, exitCode: variantMatrixPasses(matrix) ? 0 : 1 };
}
