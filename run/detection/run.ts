/**
 * The detection matrix's run (`cpc detect`): the plan (./plan.ts) run by Playwright against one
 * embedded emulator, its results read into the matrix (./matrix.ts), written and published.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { faultCatalog } from '../../emulator/faults.js';
import { loadRules } from '../../lib/rules.js';
import type { ConformanceReport } from '../../reports/model.js';
import { readRaw } from '../../reports/raw-read.js';
import { BLAST_LIMIT, blastPasses, blastText, buildBlastRadius, buildMatrix, matrixPasses, matrixText, type BlastRadius, type DetectionMatrix } from './matrix.js';
import { parseEmbeddedRunConfig } from '../../lib/run-config.js';
import { type RunConfig } from '../../lib/protocol.js';
import { startEmbedded } from '../embedded.js';
import { formatChaos, type ChaosOptions } from '../../lib/chaos/options.js';
import { checkEmulatorSettings } from '../emulator-settings.js';
import { DOT_REPORTERS } from '../paths.js';
import { listPlaywright } from '../playwright.js';
import { runSupervised } from '../supervise.js';
import { publish } from '../publish.js';
import { loadReport } from '../saved-report.js';
import { buildFullPlan, buildPlan, type PlaywrightListing } from './plan.js';
import { DETECTION_PROJECT } from './projects.js';

export interface DetectOptions {
  outDir: string;
  faults: string[];
  workers?: number;
  perFault?: number;
  /** The whole suite once per fault (nightly), instead of the tests selected per fault. */
  full?: boolean;
  /** Conforming variants (or sets, `live`) on in every world: the suite must still catch every fault. */
  variants?: string[];
  /** Legal chaos in every world (emulator/chaos/): the suite must still catch every fault. */
  chaos?: ChaosOptions;
}

/** Tests run per fault: enough to show detection, few enough for `npm test` on two cores. */
export const DEFAULT_TESTS_PER_FAULT = 6;
/** How many more chaos seeds a fault left undecided under chaos is tried with. */
const CHAOS_REDRAWS = 2;

type Catalog = Record<string, { rule: string; description: string }>;

/**
 * One Playwright run of the detection project against one shared emulator (a world per test,
 * each with its planned fault on): `plan` picks the tests and their faults.
 */
async function runDetectionRound(outDir: string, rawDir: string, workers: number | undefined, variants: readonly string[], chaos: ChaosOptions | undefined,
  plan: (listing: PlaywrightListing) => { plan: unknown; lines: string[] }) {
  // The detection run's configuration: the embedded emulator, the user's seed (or one chosen
  // now: the listing and the run share it, property titles carry it and the test list matches
  // titles), the variants on in every world.
  const given = parseEmbeddedRunConfig(process.env);
  const emulator = await startEmbedded();
  try {
    const withChaos = chaos ?? given.chaos;
    process.stdout.write(`detection seed: ${given.seed} (replay with CPC_SEED=${given.seed}${withChaos ? ` and --chaos ${formatChaos(withChaos)}` : ''})\n`);
    const base: RunConfig = { ...given, target: emulator.target, faults: [], variants: variants.length ? [...variants] : given.variants, ...(workers ? { workers } : {}), ...(withChaos ? { chaos: withChaos } : {}) };
    const planned = plan(await listPlaywright(base));
    const planFile = join(outDir, 'detection-plan.json');
    const listFile = join(outDir, 'detection-tests.txt');
    writeFileSync(planFile, JSON.stringify(planned.plan, null, 2) + '\n');
    writeFileSync(listFile, planned.lines.join('\n') + '\n');
    // Playwright's artifacts in a folder of their own: a conformance run or the variant matrix
    // beside this one empties only its own.
    return await runSupervised([DOT_REPORTERS, `--test-list=${listFile}`, `--output=${join(outDir, 'detection-artifacts')}`, ...(workers ? [`--workers=${workers}`] : [])],
      { ...base, plan: { kind: 'detection', file: planFile }, rawDir });
  } finally {
    await emulator.close();
  }
}

/**
 * The detection matrix: for every fault of the emulator's catalog, run tests that declare the
 * rule the fault breaks, with the fault on, in one Playwright run (one project; each test
 * repeated once per fault planned for it). Every fault must be detected by its own rule and
 * fail at most 3 MUST rules among its tests. With `full`, the whole suite runs once per fault
 * (`detection-full.json`): the fault's own rule must be among the failed MUST rules, and at
 * most 3 of them.
 */
export async function runDetection(options: DetectOptions): Promise<{ matrix?: DetectionMatrix; blast?: BlastRadius; exitCode: number }> {
  checkEmulatorSettings({ faults: options.faults, variants: options.variants ?? [], chaos: options.chaos, from: { faults: '--faults', variants: '--variants', chaos: '--chaos' } });
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, options.full ? 'detection-full-raw' : 'detection-raw');
  rmSync(rawDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const catalog: Catalog = options.faults.length ? Object.fromEntries(options.faults.map((f) => [f, faultCatalog[f as keyof typeof faultCatalog]])) : faultCatalog;
  const must = new Set(loadRules().filter((r) => r.level === 'MUST').map((r) => r.id));
  const started = Date.now();
  const run = await runDetectionRound(outDir, rawDir, options.workers, options.variants ?? [], options.chaos, (listing) => (options.full
    ? buildFullPlan(listing, Object.keys(catalog), DETECTION_PROJECT)
    : buildPlan(listing, catalog, options.perFault ?? DEFAULT_TESTS_PER_FAULT, DETECTION_PROJECT)));
  const raw = readRaw(rawDir).tests;

  if (options.full) {
    const blast = buildBlastRadius(catalog, raw, must, Date.now() - started);
    const { schemaVersion: _v, ...blastRadius } = blast;
    return { blast, exitCode: finish(outDir, 'detection-full.json', blast, blastText(blast), { blastRadius }, blastPasses(blast), run.interruptedBy) };
  }
  let matrix = buildMatrix(catalog, raw, must);
  // Under legal chaos a world may draw a legal choice that leaves a fault's rule undecidable (a
  // variant under which its only test skips, a reset that blocks it): such a fault is tried again
  // under other draws. A fault whose tests passed with it on stays missed: that is the suite's.
  const chaos = options.chaos ?? parseEmbeddedRunConfig(process.env).chaos;
  for (let round = 1; chaos && round <= CHAOS_REDRAWS && !run.interruptedBy; round++) {
    const undecided = matrix.rows.filter((r) => r.detection === 'no-tests' || (r.detection === 'other-rule' && r.failedRules.length === 0)).map((r) => r.fault);
    if (undecided.length === 0) break;
    process.stdout.write(`\nchaos: ${undecided.length} fault(s) undecided under chaos ${formatChaos(chaos)} (${undecided.join(', ')}): drawn again with seed ${chaos.seed + round}\n`);
    const again = Object.fromEntries(undecided.map((f) => [f, catalog[f]!]));
    const roundDir = `${rawDir}-redraw-${round}`;
    rmSync(roundDir, { recursive: true, force: true });
    await runDetectionRound(outDir, roundDir, options.workers, options.variants ?? [], { ...chaos, seed: chaos.seed + round },
      (listing) => buildPlan(listing, again, options.perFault ?? DEFAULT_TESTS_PER_FAULT, DETECTION_PROJECT));
    const redrawn = new Map(buildMatrix(again, readRaw(roundDir).tests, must).rows.map((r) => [r.fault, r]));
    const rows = matrix.rows.map((r) => redrawn.get(r.fault) ?? r);
    matrix = { ...matrix, rows, detected: rows.filter((r) => r.detection === 'detected').length, overLimit: rows.filter((r) => r.failedMust > BLAST_LIMIT).length };
  }
  const { schemaVersion: _v, ...detection } = matrix;
  return { matrix, exitCode: finish(outDir, 'detection.json', matrix, matrixText(matrix), { detection }, matrixPasses(matrix), run.interruptedBy) };
}

/** Writes the result file, prints it, adds it to the report of the same folder; the exit code. */
function finish(outDir: string, file: string, data: object, text: string, section: Partial<ConformanceReport>, passes: boolean, interruptedBy: unknown): number {
  writeFileSync(join(outDir, file), JSON.stringify(data, null, 2) + '\n');
  process.stdout.write('\n' + text + '\n');
  const saved = join(outDir, 'conformance.json');
  if (existsSync(saved)) publish({ ...loadReport(saved), ...section }, outDir);
  if (interruptedBy) return 130;
  return passes ? 0 : 1;
}
