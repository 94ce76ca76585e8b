/**
 * The chaos matrix's run (`npm run chaos`, bin/commands/chaos.ts): one `cpc conformance --chaos`
 * process per seed, each seed's report read into a row (./chaos.ts), the matrix written to
 * `chaos.json`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatChaos, type ChaosOptions } from '../../lib/chaos/options.js';
import { buildChaosMatrix, chaosMatrixPasses, chaosMatrixText, chaosRow, type ChaosMatrix, type ChaosSeedRow } from './chaos.js';
import type { ConformanceReport } from '../../reports/model.js';
import { PROJECT_ROOT, tsxLoader } from '../paths.js';
import { exitOf } from '../child.js';

export interface ChaosRunOptions {
  outDir: string;
  seeds: number;
  from: number;
  realTime: boolean;
  latencyMs: number;
  workers?: number;
  propertyRuns?: number;
  jobModelRuns?: number;
}

/** Seeds of `npm run chaos` without `--seeds`: a few, on the virtual clock, as `npm test` runs them. */
export const DEFAULT_SEEDS = 3;

/** What one seed's run writes under the matrix's folder. */
const seedDir = (outDir: string, seed: number): string => join(outDir, 'chaos', String(seed));

function replayOf(seed: number, chaos: string, o: ChaosRunOptions): string {
  const env = [`CPC_SEED=${seed}`, ...(o.propertyRuns ? [`CPC_PROPERTY_RUNS=${o.propertyRuns}`] : []), ...(o.jobModelRuns ? [`CPC_JOB_MODEL_RUNS=${o.jobModelRuns}`] : [])];
  return `${env.join(' ')} npm run conformance -- --chaos ${chaos} --skip-load`;
}

/** One seed: `cpc conformance --chaos` in a process of its own, its output kept beside its report. */
async function runSeed(seed: number, o: ChaosRunOptions): Promise<ChaosSeedRow> {
  const options: ChaosOptions = { seed, ...(o.realTime ? { realTime: true } : {}), ...(o.latencyMs ? { latencyMs: o.latencyMs } : {}) };
  const chaos = formatChaos(options);
  const dir = seedDir(o.outDir, seed);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = [`--import=${tsxLoader()}`, join(PROJECT_ROOT, 'bin', 'cpc.ts'), 'conformance', '--chaos', chaos, '--skip-load', '--quiet-summary',
    '--out', dir, '--artifacts', join(dir, 'artifacts'), ...(o.workers ? ['--workers', String(o.workers)] : [])];
  const { CPC_EMULATOR_CHAOS: _unused, ...env } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...env, CPC_SEED: String(seed), ...(o.propertyRuns ? { CPC_PROPERTY_RUNS: String(o.propertyRuns) } : {}), ...(o.jobModelRuns ? { CPC_JOB_MODEL_RUNS: String(o.jobModelRuns) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(dir, 'output.txt'));
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const code = await exitOf(child);
  const wallMs = performance.now() - started;
  await new Promise<void>((done) => { log.end(done); });
  const file = join(dir, 'conformance.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport : undefined;
  return chaosRow(seed, chaos, replayOf(seed, chaos, o), code, wallMs, report);
}

/** Every seed of the matrix, one after the other (an interruption ends it after the seed running); `chaos.json` written and printed. */
export async function runChaosMatrix(o: ChaosRunOptions): Promise<{ matrix: ChaosMatrix; exitCode: number }> {
  const outDir = resolve(o.outDir);
  mkdirSync(outDir, { recursive: true });
  let interrupted = false;
  const stop = (): void => { interrupted = true; };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const started = performance.now();
  const rows: ChaosSeedRow[] = [];
  try {
    for (let seed = o.from; seed < o.from + o.seeds && !interrupted; seed++) {
      process.stdout.write(`chaos seed ${seed} (${formatChaos({ seed, ...(o.realTime ? { realTime: true } : {}), ...(o.latencyMs ? { latencyMs: o.latencyMs } : {}) })})…\n`);
      const row = await runSeed(seed, { ...o, outDir });
      rows.push(row);
      process.stdout.write(`  MUST pass ${row.must.pass}, fail ${row.must.fail}, blocked ${row.must.blocked}; ${(row.wallMs / 1000).toFixed(1)} s\n`);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  const matrix = buildChaosMatrix(rows, o.realTime ? 'real-time' : 'virtual', o.latencyMs, performance.now() - started);
  writeFileSync(join(outDir, 'chaos.json'), JSON.stringify(matrix, null, 2) + '\n');
  process.stdout.write('\n' + chaosMatrixText(matrix) + '\n');
  if (interrupted) return { matrix, exitCode: 130 };
  return { matrix, exitCode: chaosMatrixPasses(matrix) ? 0 : 1 };
}
