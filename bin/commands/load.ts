/**
 * `npm run load`: runs every load scenario (`load/*.ts`) against the target, the embedded
 * emulator by default. With a `k6` binary on PATH the scripts run on k6; otherwise they run on
 * the Node path (lib/k6node) at their default, smoke scale. Each scenario writes its summary to
 * `reports/out/load/<scenario>.json` for the conformance report.
 *
 *   npm run load -- [--runner auto|k6|node] [--scenario NAME ...] [--out DIR] [--base-url URL ...]
 *
 * Exit code: 0 when every scenario passed; k6's code otherwise (99: a threshold failed).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { configToEnv, ENV_VARS, flagOf, loadTargetConfig, type ConfigKey } from '../../lib/config.js';
import { ConfigError, CpcError } from '../../lib/errors.js';
import { EXIT } from '../../lib/k6node/exit-codes.js';
import { runScript } from '../../lib/k6node/runner.js';
import { startEmulator } from '../../emulator/server.js';
import { PROJECT_ROOT } from '../paths.js';

export type LoadRunner = 'k6' | 'node';

export interface LoadRunOptions {
  /** Target flags, as for `cpc conformance` (they win over the environment). */
  flags?: Partial<Record<ConfigKey, string>>;
  env?: NodeJS.ProcessEnv;
  /** Where summaries go (default reports/out/load). */
  outDir?: string;
  /** Scenario names (file names without `.ts`); default: every `load/*.ts`. */
  scenarios?: string[];
  /** `auto` (default) uses k6 when it is on PATH. */
  runner?: 'auto' | LoadRunner;
  /** Lines of progress and the final table; default: stdout. */
  print?: (line: string) => void;
  /** Where the scripts' own output goes; default: inherited (k6) or stdout/stderr (Node path). */
  quietScripts?: boolean;
}

export interface LoadScenarioRun {
  scenario: string;
  script: string;
  runner: LoadRunner;
  exitCode: number;
  ok: boolean;
  durationMs: number;
  summaryFile: string;
  /** Thresholds that failed (Node path), or why the run ended early. */
  breached: string[];
  error?: string;
}

export interface LoadRunResult {
  runner: LoadRunner;
  target: 'embedded' | 'remote';
  outDir: string;
  scenarios: LoadScenarioRun[];
  exitCode: number;
}

const LOAD_DIR = join(PROJECT_ROOT, 'load');

/** The scenario scripts: one per `load/*.ts` file (helpers live in load/lib, benchmarks in load/bench). */
export function scenarioNames(): string[] {
  return readdirSync(LOAD_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => basename(f, '.ts')).sort();
}

/** True when a `k6` binary answers on PATH. */
export function k6Available(): boolean {
  const r = spawnSync('k6', ['version'], { stdio: 'ignore', timeout: 10_000 });
  return r.status === 0;
}

function runK6(script: string, env: Record<string, string>, exportFile: string, quiet: boolean): Promise<number> {
  return new Promise((done) => {
    const child = spawn('k6', ['run', '--summary-export', exportFile, script], {
      cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: quiet ? 'ignore' : 'inherit',
    });
    child.on('error', () => done(EXIT.scriptException));
    child.on('exit', (code, signal) => done(code ?? (signal ? EXIT.externalAbort : EXIT.scriptException)));
  });
}

/** A summary for a run that ended before handleSummary wrote one, so the report shows the failure. */
function writeFailureSummary(file: string, scenario: string, exitCode: number, why: string): void {
  writeFileSync(file, JSON.stringify({
    scenario, description: `The run ended before its summary (exit code ${exitCode}): ${why}`,
    thresholds: { 'the scenario ran to its summary': { ok: false } }, checks: [], metrics: {},
  }, null, 2) + '\n');
}

/** Runs the scenarios one after another against the configured target; never throws for a failed scenario. */
export async function runLoadScenarios(options: LoadRunOptions = {}): Promise<LoadRunResult> {
  const print = options.print ?? ((l: string) => void process.stdout.write(l + '\n'));
  const config = loadTargetConfig(options.env ?? process.env, options.flags ?? {});
  const outDir = resolve(options.outDir ?? join(PROJECT_ROOT, 'reports', 'out', 'load'));
  const known = scenarioNames();
  const wanted = options.scenarios?.length ? options.scenarios : known;
  const unknown = wanted.filter((s) => !known.includes(s));
  if (unknown.length) throw new ConfigError(`unknown load scenario(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const choice = options.runner ?? ((options.env ?? process.env).CPC_LOAD_RUNNER as LoadRunOptions['runner']) ?? 'auto';
  if (choice !== 'auto' && choice !== 'k6' && choice !== 'node') throw new ConfigError(`the load runner is auto, k6 or node, got "${String(choice)}"`);
  const runner: LoadRunner = choice === 'auto' ? (k6Available() ? 'k6' : 'node') : choice;
  if (runner === 'k6' && !k6Available()) throw new ConfigError('--runner k6 needs a k6 binary on PATH');
  mkdirSync(outDir, { recursive: true });

  const emulator = config.kind === 'embedded' ? await startEmulator({ port: 0, host: '127.0.0.1' }) : undefined;
  const targetEnv: Record<string, string> = emulator
    ? { CPC_BASE_URL: emulator.url, CPC_SERVERLESS_URL: emulator.url, CPC_REST_V1_URL: emulator.url }
    : configToEnv(config);
  const env = { ...targetEnv, CPC_LOAD_OUT_DIR: outDir };
  print(`load: ${wanted.length} scenario(s) on ${runner === 'k6' ? 'k6' : 'the Node path (smoke scale)'} against ${emulator ? `the embedded emulator at ${emulator.url}` : targetEnv.CPC_BASE_URL}`);

  const runs: LoadScenarioRun[] = [];
  try {
    for (const scenario of wanted) {
      const script = join(LOAD_DIR, `${scenario}.ts`);
      const summaryFile = join(outDir, `${scenario}.json`);
      rmSync(summaryFile, { force: true });
      const started = Date.now();
      let exitCode: number;
      let breached: string[] = [];
      let error: string | undefined;
      if (runner === 'k6') {
        const exportDir = join(outDir, '..', 'load-k6');
        mkdirSync(exportDir, { recursive: true });
        exitCode = await runK6(script, env, join(exportDir, `${scenario}.summary-export.json`), options.quietScripts === true);
      } else {
        const quiet = options.quietScripts === true ? { out: () => undefined, err: () => undefined } : {};
        const r = await runScript({ script, env, cwd: PROJECT_ROOT, ...quiet });
        ({ exitCode, breached } = r);
        error = r.error;
      }
      const run: LoadScenarioRun = { scenario, script, runner, exitCode, ok: exitCode === EXIT.ok, durationMs: Date.now() - started, summaryFile, breached, ...(error ? { error } : {}) };
      if (!existsSync(summaryFile)) writeFailureSummary(summaryFile, scenario, exitCode, error ?? 'no summary was written');
      runs.push(run);
      print(`load: ${scenario}: ${run.ok ? 'passed' : `FAILED (exit ${exitCode}${breached.length ? `; thresholds: ${breached.join(', ')}` : ''}${error ? `; ${error.split('\n')[0]}` : ''})`} in ${(run.durationMs / 1000).toFixed(1)} s`);
    }
  } finally {
    await emulator?.close();
  }
  const failed = runs.filter((r) => !r.ok);
  const exitCode = failed.length === 0 ? EXIT.ok : (failed.find((r) => r.exitCode !== EXIT.thresholdsFailed)?.exitCode ?? EXIT.thresholdsFailed);
  print(`load: ${runs.length - failed.length}/${runs.length} scenario(s) passed; summaries in ${outDir.replace(PROJECT_ROOT + '/', '')}`);
  return { runner, target: config.kind, outDir, scenarios: runs, exitCode };
}

async function main(argv: string[]): Promise<number> {
  const targetOptions = Object.fromEntries((Object.keys(ENV_VARS) as ConfigKey[]).map((k) => [flagOf(k), { type: 'string' as const }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...targetOptions, runner: { type: 'string' }, scenario: { type: 'string', multiple: true }, out: { type: 'string' } }, strict: true });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values as Record<string, string | string[] | undefined>;
  const flags: Partial<Record<ConfigKey, string>> = {};
  for (const k of Object.keys(ENV_VARS) as ConfigKey[]) if (typeof v[flagOf(k)] === 'string') flags[k] = v[flagOf(k)] as string;
  const result = await runLoadScenarios({
    flags, ...(typeof v.out === 'string' ? { outDir: v.out } : {}), ...(v.scenario ? { scenarios: v.scenario as string[] } : {}),
    ...(typeof v.runner === 'string' ? { runner: v.runner as LoadRunOptions['runner'] } : {}),
  });
  return result.exitCode;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => {
      process.stderr.write(`load: ${error instanceof CpcError ? `${error.code}: ` : ''}${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = error instanceof ConfigError ? 2 : 1;
    },
  );
}
