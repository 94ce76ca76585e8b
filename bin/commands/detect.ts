import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { faultCatalog } from '../../emulator/faults.js';
import { startEmulator } from '../../emulator/server.js';
import { readRaw } from '../../reports/write.js';
import { buildMatrix, matrixText, type DetectionMatrix } from '../../test/detection/matrix.js';
import { ConfigError } from '../../lib/errors.js';
import { listPlaywright, runPlaywright } from './playwright.js';
import { publish } from './publish.js';
import { loadReport } from './saved-report.js';
import { buildPlan } from '../../test/detection/plan.js';
import { DETECTION_PROJECT } from '../../test/detection/projects.js';

export interface DetectOptions { outDir: string; faults: string[]; workers?: number; perFault?: number }

/** Tests run per fault: enough to show detection, few enough for `npm test` on two cores. */
export const DEFAULT_TESTS_PER_FAULT = 6;

/**
 * The detection matrix: for every fault of the emulator's catalog, run tests that declare the
 * rule the fault breaks, with the fault on, in one Playwright run (one project; each test
 * repeated once per fault planned for it; one shared emulator, a world per test). Every fault
 * must be detected by its own rule.
 */
export async function runDetection(options: DetectOptions): Promise<{ matrix: DetectionMatrix; exitCode: number }> {
  const unknown = options.faults.filter((f) => !Object.hasOwn(faultCatalog, f));
  if (unknown.length) throw new ConfigError(`unknown fault(s): ${unknown.join(', ')}`);
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, 'detection-raw');
  rmSync(rawDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const catalog = options.faults.length ? Object.fromEntries(options.faults.map((f) => [f, faultCatalog[f as keyof typeof faultCatalog]])) : faultCatalog;
  const emulator = await startEmulator({ port: 0 });
  let run;
  try {
    const target = { CPC_BASE_URL: emulator.url, CPC_SERVERLESS_URL: emulator.url, CPC_REST_V1_URL: emulator.url };
    const { plan, lines } = buildPlan(await listPlaywright(target), catalog, options.perFault ?? DEFAULT_TESTS_PER_FAULT, DETECTION_PROJECT);
    const planFile = join(outDir, 'detection-plan.json');
    const listFile = join(outDir, 'detection-tests.txt');
    writeFileSync(planFile, JSON.stringify(plan, null, 2) + '\n');
    writeFileSync(listFile, lines.join('\n') + '\n');
    run = await runPlaywright(['--reporter=dot,./reports/playwright-reporter.ts', `--test-list=${listFile}`, ...(options.workers ? [`--workers=${options.workers}`] : [])],
      { ...target, CPC_DETECTION_PLAN: planFile, CPC_RAW_DIR: rawDir });
  } finally {
    await emulator.close();
  }
  const matrix = buildMatrix(catalog, readRaw(rawDir).tests);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'detection.json'), JSON.stringify(matrix, null, 2) + '\n');
  process.stdout.write('\n' + matrixText(matrix) + '\n');
  // The conformance report of the same folder shows the matrix too (re-rendered in every format).
  const saved = join(outDir, 'conformance.json');
  if (existsSync(saved)) {
    const { schemaVersion: _v, ...detection } = matrix;
    publish({ ...loadReport(saved), detection }, outDir);
  }
  if (run.interruptedBy) return { matrix, exitCode: 130 };
  return { matrix, exitCode: matrix.detected === matrix.faults ? 0 : 1 };
}
