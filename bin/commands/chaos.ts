/**
 * The chaos matrix: the whole contract and property suite against the emulator's legal chaos
 * (emulator/README.md "Chaos"), once per seed, each seed a `cpc conformance --chaos` run of its
 * own (its seed is the run's seed too, so one number replays both). Every seed must end with no
 * failed MUST rule: a target that makes every free choice at once, and takes its time, is still
 * a legal one. Writes `reports/out/chaos.json` (per seed: MUST verdicts, the failed and blocked
 * rules with their tests, wall time) and prints one line per seed.
 *
 *   npm run chaos -- [--seeds N] [--from S] [--real-time] [--latency-ms M] [--workers N]
 *                    [--property-runs N] [--job-model-runs N] [--out DIR]
 *
 * `--real-time`: each world's clock runs in real time (queueing, cold starts and provisioning
 * then take real seconds); `--latency-ms`: the mean latency of every request (nightly: 20 seeds,
 * real time, 120 ms). The load scenarios are not part of it: they run on an emulator of their own.
 * A project self-test like the variant matrix, so an npm script rather than a `cpc` command:
 * chaos applies to the emulator only, never to a deployment.
 * Exit code: 0 every seed clean, 1 otherwise, 2 configuration error, 130 interrupted.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatChaos, MAX_CHAOS_LATENCY_MS, type ChaosOptions } from '../../lib/chaos/options.js';
import { buildChaosMatrix, chaosMatrixPasses, chaosMatrixText, chaosRow, type ChaosMatrix, type ChaosSeedRow } from '../../run/detection/chaos.js';
import { ConfigError } from '../../lib/errors.js';
import { MAX_SEED } from '../../lib/run-config.js';
import type { ConformanceReport } from '../../reports/model.js';
import { PROJECT_ROOT, tsxLoader } from '../../run/paths.js';
import { exitOf } from '../../run/child.js';
import { runAsScript } from '../../run/entry.js';

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

function positive(value: string | undefined, flag: string, min = 1, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(/^\d+$/.test(value) && n >= min && n <= max)) throw new ConfigError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`, flag);
  return n;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, strict: true,
      options: {
        seeds: { type: 'string' }, from: { type: 'string' }, 'real-time': { type: 'boolean' }, 'latency-ms': { type: 'string' }, workers: { type: 'string' },
        'property-runs': { type: 'string' }, 'job-model-runs': { type: 'string' }, out: { type: 'string' },
      },
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  if (process.env.CPC_BASE_URL?.trim()) throw new ConfigError('the chaos matrix runs against the embedded emulator: unset CPC_BASE_URL', 'CPC_BASE_URL');
  const seeds = positive(v.seeds, '--seeds', 1, 1000) ?? DEFAULT_SEEDS;
  const from = positive(v.from, '--from', 0, MAX_SEED) ?? 1;
  if (from + seeds - 1 > MAX_SEED) throw new ConfigError(`--from ${from} with --seeds ${seeds} passes the largest seed, ${MAX_SEED}`, '--from');
  const workers = positive(v.workers, '--workers');
  const propertyRuns = positive(v['property-runs'], '--property-runs');
  const jobModelRuns = positive(v['job-model-runs'], '--job-model-runs');
  const { exitCode } = await runChaosMatrix({
    outDir: v.out ?? join(PROJECT_ROOT, 'reports', 'out'),
    seeds, from, realTime: v['real-time'] === true, latencyMs: positive(v['latency-ms'], '--latency-ms', 0, MAX_CHAOS_LATENCY_MS) ?? 0,
    ...(workers ? { workers } : {}), ...(propertyRuns ? { propertyRuns } : {}), ...(jobModelRuns ? { jobModelRuns } : {}),
  });
  return exitCode;
}

runAsScript('chaos', import.meta.url, main);
