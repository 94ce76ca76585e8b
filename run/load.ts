/**
 * The load scenarios' run (`npm run load`, bin/commands/load.ts; `cpc conformance` on a deployment): runs every load scenario (`load/*.ts`) against the target, the embedded
 * emulator by default. With a k6 binary (`K6`, or `k6` on PATH) the scripts run on k6; otherwise
 * they run on the Node path (run/k6node) at their default, smoke scale. Each scenario writes its summary to
 * `reports/out/load/<scenario>.json` for the conformance report.
 *
 *   npm run load -- [--runner auto|k6|node] [--scenario NAME ...] [--out DIR] [--segments N] [--base-url URL ...]
 *
 * `--segments N` (k6 only) runs each scenario as N k6 processes at once, split with
 * `--execution-segment` as k6-operator splits a TestRun of `parallelism: N`, and combines their
 * summaries (run/k6node/combine.ts) into the scenario's one summary.
 *
 * Exit code: 0 when every scenario passed; k6's code otherwise (99: a threshold failed).
 */
import { spawn } from 'node:child_process';
import { exitOf } from './child.js';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configToEnv, loadTargetConfig, type ConfigKey, type Target, type TargetSetting } from '../lib/config.js';
import { userSettings } from '../lib/run-config.js';
import { startEmbedded } from './embedded.js';
import { ConfigError } from '../lib/errors.js';
import { EXIT } from './k6node/exit-codes.js';
import { findK6 } from './k6node/k6-binary.js';
import { combineSummaries, executionSegments } from './k6node/combine.js';
import type { LoadSummary } from '../reports/load-model.js';
import { runK6ScriptOnNode } from './k6node/runner.js';
import { LOAD_DIR, PROJECT_ROOT, scenarioNames } from './paths.js';

export type LoadRunner = 'k6' | 'node';

export interface LoadRunOptions {
  /** Target flags, as for `cpc conformance` (they win over the environment). */
  flags?: Partial<Record<ConfigKey, string>>;
  /** The run's target, already resolved (cpc conformance: its embedded emulator or deployment); wins over flags and environment. */
  /** The run's target (resolved), or a user's setting: no target starts an emulator for the scenarios. */
  target?: Target | TargetSetting;
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
  /** k6 only: split each scenario into this many execution segments run at once (default 1). */
  segments?: number;
}

/** One k6 process of a split scenario. */
export interface SegmentRun { segment: string; exitCode: number; summaryFile: string }

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
  /** The execution segments of a split run, each with its own exit code and summary. */
  segments?: SegmentRun[];
}

export interface LoadRunResult {
  runner: LoadRunner;
  target: 'embedded' | 'remote';
  outDir: string;
  scenarios: LoadScenarioRun[];
  exitCode: number;
}



export interface K6Run {
  script: string;
  /** The scenario's environment, on top of this process's. */
  env: Record<string, string>;
  /** Extra `k6 run` arguments (for example `--execution-segment`). */
  args?: string[];
  /** k6's own `--summary-export` file. */
  exportFile?: string;
  quiet?: boolean;
  /** The k6 binary; default `K6` or `k6` on PATH. */
  k6?: string;
}

/** `k6 run` of one script from the project root; resolves with k6's exit code. */
export function runK6Script(run: K6Run): Promise<number> {
  const args = ['run', ...(run.exportFile ? ['--summary-export', run.exportFile] : []), ...(run.args ?? []), run.script];
  const child = spawn(run.k6 ?? (process.env.K6?.trim() || 'k6'), args, {
    cwd: PROJECT_ROOT, env: { ...process.env, ...run.env }, stdio: run.quiet ? 'ignore' : 'inherit',
  });
  return exitOf(child, { signal: EXIT.externalAbort, failed: EXIT.scriptException });
}

/** A summary for a run that ended before handleSummary wrote one, so the report shows the failure. */
function writeFailureSummary(file: string, scenario: string, exitCode: number, why: string): void {
  writeFileSync(file, JSON.stringify({
    scenario, description: `The run ended before its summary (exit code ${exitCode}): ${why}`,
    thresholds: { 'the scenario ran to its summary': { ok: false } }, checks: [], metrics: {},
  }, null, 2) + '\n');
}

/** 0 when every code is 0; otherwise the first code that is not 99 (a threshold), else 99. */
function worstExit(codes: number[]): number {
  const failed = codes.filter((c) => c !== EXIT.ok);
  return failed.length === 0 ? EXIT.ok : (failed.find((c) => c !== EXIT.thresholdsFailed) ?? EXIT.thresholdsFailed);
}

interface SplitRun { script: string; scenario: string; env: Record<string, string>; outDir: string; summaryFile: string; quiet: boolean; k6: string }

/**
 * One scenario as `n` k6 processes at once, each with its execution segment (k6-operator's split
 * of a TestRun with `parallelism: n`); each writes its summary under `segments/<i>/`, and the
 * scenario's summary is their combination, written when every segment wrote one.
 */
async function runSegments(n: number, run: SplitRun): Promise<SegmentRun[]> {
  const { segments, sequence } = executionSegments(n);
  const exportDir = join(run.outDir, '..', 'load-k6');
  mkdirSync(exportDir, { recursive: true });
  const runs = await Promise.all(segments.map(async (segment, i): Promise<SegmentRun> => {
    const dir = join(run.outDir, 'segments', String(i + 1));
    mkdirSync(dir, { recursive: true });
    const summaryFile = join(dir, `${run.scenario}.json`);
    rmSync(summaryFile, { force: true });
    const exitCode = await runK6Script({
      script: run.script, env: { ...run.env, CPC_LOAD_OUT_DIR: dir }, quiet: run.quiet, k6: run.k6,
      args: ['--execution-segment', segment, '--execution-segment-sequence', sequence],
      exportFile: join(exportDir, `${run.scenario}.segment-${i + 1}.summary-export.json`),
    });
    return { segment, exitCode, summaryFile };
  }));
  if (runs.every((r) => existsSync(r.summaryFile))) {
    const parts = runs.map((r) => JSON.parse(readFileSync(r.summaryFile, 'utf8')) as LoadSummary);
    writeFileSync(run.summaryFile, JSON.stringify({ ...combineSummaries(parts, segments), runner: 'k6' }, null, 2) + '\n');
  }
  return runs;
}

/** Runs the scenarios one after another against the configured target; never throws for a failed scenario. */
export async function runLoadScenarios(options: LoadRunOptions = {}): Promise<LoadRunResult> {
  const print = options.print ?? ((l: string) => void process.stdout.write(l + '\n'));
  const config = options.target ?? loadTargetConfig(options.env ?? process.env, options.flags ?? {});
  const settings = userSettings(options.env ?? process.env);
  const outDir = resolve(options.outDir ?? join(PROJECT_ROOT, 'reports', 'out', 'load'));
  const known = scenarioNames();
  const wanted = options.scenarios?.length ? options.scenarios : known;
  const unknown = wanted.filter((s) => !known.includes(s));
  if (unknown.length) throw new ConfigError(`unknown load scenario(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const choice = options.runner ?? (settings.loadRunner as LoadRunOptions['runner']) ?? 'auto';
  if (choice !== 'auto' && choice !== 'k6' && choice !== 'node') throw new ConfigError(`the load runner is auto, k6 or node, got "${String(choice)}"`);
  const k6 = findK6(options.env ?? process.env);
  const runner: LoadRunner = choice === 'auto' ? (k6.found ? 'k6' : 'node') : choice;
  if (runner === 'k6' && !k6.found) throw new ConfigError(`--runner k6 needs a k6 binary: ${k6.reason}`);
  const split = options.segments ?? 1;
  if (!Number.isInteger(split) || split < 1 || split > 16) throw new ConfigError(`--segments is a whole number from 1 to 16, got ${String(options.segments)}`);
  if (split > 1 && runner !== 'k6') throw new ConfigError('--segments needs the k6 runner: the Node path runs no execution segments');
  mkdirSync(outDir, { recursive: true });

  // An embedded target not started yet: this run starts its own emulator.
  const emulator = config.kind === 'embedded' && !('baseUrl' in config) ? await startEmbedded() : undefined;
  const targetEnv: Record<string, string> = configToEnv(emulator ? emulator.target : config);
  // The scripts' own knobs (`CPC_LOAD_VUS`, tolerances...) from the environment this run was
  // given; the scripts also see this process's environment, as k6 passes its own on.
  const knobs = Object.fromEntries(Object.entries(options.env ?? {}).filter((e): e is [string, string] => e[0].startsWith('CPC_LOAD_') && e[1] !== undefined));
  const env: Record<string, string> = { ...knobs, ...targetEnv, CPC_LOAD_OUT_DIR: outDir };
  if (split > 1) {
    // A split gives each segment a share of every scenario's VUs: with fewer VUs than segments
    // some process runs a scenario with none, and its `count>0` thresholds fail on nothing done.
    const vus = settings.loadVus;
    if (vus !== undefined && vus < split) throw new ConfigError(`--segments ${split} needs CPC_LOAD_VUS of at least ${split} (one VU per segment), got ${vus}`);
    if (vus === undefined) env.CPC_LOAD_VUS = String(split);
  }
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
      let segments: SegmentRun[] | undefined;
      if (runner === 'k6' && split > 1) {
        segments = await runSegments(split, { script, scenario, env, outDir, summaryFile, quiet: options.quietScripts === true, k6: k6.found ? k6.path : 'k6' });
        exitCode = worstExit(segments.map((r) => r.exitCode));
      } else if (runner === 'k6') {
        const exportDir = join(outDir, '..', 'load-k6');
        mkdirSync(exportDir, { recursive: true });
        exitCode = await runK6Script({ script, env, exportFile: join(exportDir, `${scenario}.summary-export.json`), quiet: options.quietScripts === true, ...(k6.found ? { k6: k6.path } : {}) });
      } else {
        const quiet = options.quietScripts === true ? { out: () => undefined, err: () => undefined } : {};
        const r = await runK6ScriptOnNode({ script, env, cwd: PROJECT_ROOT, ...quiet });
        ({ exitCode, breached } = r);
        error = r.error;
      }
      const run: LoadScenarioRun = { scenario, script, runner, exitCode, ok: exitCode === EXIT.ok, durationMs: Date.now() - started, summaryFile, breached, ...(error ? { error } : {}), ...(segments ? { segments } : {}) };
      if (!existsSync(summaryFile)) writeFailureSummary(summaryFile, scenario, exitCode, error ?? 'no summary was written');
      runs.push(run);
      const byPart = segments ? ` (${segments.map((r) => `${r.segment}: exit ${r.exitCode}`).join(', ')})` : '';
      print(`load: ${scenario}: ${run.ok ? 'passed' : `FAILED (exit ${exitCode}${breached.length ? `; thresholds: ${breached.join(', ')}` : ''}${error ? `; ${error.split('\n')[0]}` : ''})`}${byPart} in ${(run.durationMs / 1000).toFixed(1)} s`);
    }
  } finally {
    await emulator?.close();
  }
  const failed = runs.filter((r) => !r.ok);
  const exitCode = worstExit(runs.map((r) => r.exitCode));
  print(`load: ${runs.length - failed.length}/${runs.length} scenario(s) passed; summaries in ${outDir.replace(PROJECT_ROOT + '/', '')}`);
  return { runner, target: config.kind, outDir, scenarios: runs, exitCode };
}
