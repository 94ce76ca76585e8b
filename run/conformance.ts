import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { keysOf, type ConfigKey, type Target, type TargetSetting } from '../lib/config.js';
import { parseRunConfig, workersFor } from '../lib/run-config.js';
import { closeRunFolder, openRunFolder } from '../lib/run-folder.js';
import type { ForecastCheckFile, PlanFile, RunConfig } from '../lib/protocol.js';
import type { SuiteName } from '../lib/suites.js';
import { ConfigError } from '../lib/errors.js';
import { budgetBreaches, type Budgets } from '../lib/plan.js';
import { lanesFor, totalWorkers } from '../lib/lanes.js';
import { faultCatalog, isFaultId } from '../emulator/faults.js';
import { formatChaos, type ChaosOptions } from '../lib/chaos/options.js';
import { checkEmulatorSettings } from './emulator-settings.js';
import type { ConformanceReport, TargetIdentity } from '../reports/model.js';
import { bindEmbedded, type EmbeddedTarget } from './embedded.js';
import { DOT_REPORTERS, SUITE_VERSION, PROJECT_ROOT, outputRoot } from './paths.js';
import { replayCommand } from './replay.js';
import { probe, runSupervised, type SupervisedRun } from './supervise.js';
import { startLoadBeside } from './load-beside.js';
import type { BlockedGate } from './publish.js';
import { budgetsOf, readRequestEstimates } from './budgets.js';
import { resolveDeployment } from './target.js';

/**
 * `cpc conformance` as named steps, after Playwright's runner tasks: resolve the configuration →
 * start the target → preflight → run the suites beside the load scenarios → collect → build the
 * report → publish. Each step is a small function of what the ones before it decided; what is
 * decided (the target, whether it has a control surface, the workers, the run id) is decided
 * once, in {@link resolveConfiguration} and {@link startTarget}, and handed down in the run
 * configuration (lib/protocol.ts), never probed or defaulted again downstream.
 */

export interface ConformanceOptions {
  flags: Partial<Record<ConfigKey, string>>;
  outDir: string;
  projects: SuiteName[];
  grep?: string;
  workers?: number;
  faults: string[];
  /** Legal chaos in every emulator world (`--chaos`); wins over CPC_EMULATOR_CHAOS. */
  chaos?: ChaosOptions;
  /** Print only the summary, not every test line. */
  quiet: boolean;
  /** Expectations file of known differences; any change fails the run. */
  baseline?: string;
  /** Rewrite the baseline from this run, on purpose. */
  updateBaseline?: boolean;
  /** Where the load scenarios' summaries are (default `<out>/load`). */
  loadDir?: string;
  /** How often the watchdog probes a remote target (ms); three misses in a row stop the run. */
  probeEveryMs?: number;
  /** Playwright's output folder (default `test-results`, from playwright.config.ts). */
  artifactsDir?: string;
  /** Run the load scenarios (beside the suites on the embedded emulator, after them on a deployment): `auto` (default) runs them against the embedded emulator only. */
  load?: 'auto' | 'on' | 'off';
  /** Run one slice of the suite (Playwright's `--shard`); the report is marked partial, for `cpc report --merge`. */
  shard?: { index: number; total: number };
  /** Against a remote target, skip the preflight checks that otherwise stop a misconfigured run (exit 2). */
  skipPreflight?: boolean;
  /** The target's label in the report (default: the profile's `targetName`, else the base URL or `embedded emulator`). */
  targetName?: string;
  /** A previous report of the same target (or a history folder: its newest): summary.md says what changed since. */
  previous?: string;
  /** A strict gate: fail the run on blocked MUST rules (see publish.ts). */
  failOnBlocked?: BlockedGate;
  /** The certification gate: fail a run that left any MUST rule undecided (`--require-all-must`, or the profile's `requireAllMust`). */
  requireAllMust?: boolean;
  /** `--max-*` flags; each wins over the profile's (lib/plan.ts). */
  budgets?: Budgets;
}

export interface ConformanceOutcome { report: ConformanceReport; exitCode: number; files: string[] }

// What runs after the suites (reading the results, building and writing the report) is imported
// while they run: against the embedded emulator, Playwright starts without waiting for it.
const afterRun = () => Promise.all([
  import('../lib/rules.js'), import('../reports/build.js'), import('../reports/raw-read.js'),
  import('../reports/load.js'), import('../reports/mutation.js'), import('./publish.js'),
]);

/** What {@link resolveConfiguration} decided: the user's configuration, validated once. */
interface Resolved {
  options: ConformanceOptions;
  given: RunConfig;
  setting: TargetSetting;
  faults: string[];
  targetName: string;
  previous: { report: ConformanceReport; file: string } | undefined;
  replay: string;
  outDir: string;
  rawDir: string;
  startedAt: Date;
}

/** The configuration handed to Playwright, with its workers decided (lib/run-config.ts `workersFor`). */
type Handed = RunConfig & { workers: number };

/** What {@link startTarget} made of the setting: the target, resolved, and the emulator the run owns. */
interface Started { target: Target; serving?: Promise<EmbeddedTarget> }

/** Step 1: the run configuration from the variables and flags, checked before anything starts. */
async function resolveConfiguration(options: ConformanceOptions): Promise<Resolved> {
  const parsed = parseRunConfig(process.env, options.flags);
  if (parsed.target.kind !== 'pending') throw new ConfigError('a parsed configuration names a target setting');
  const setting = parsed.target.setting;
  // CPC_EMULATOR_FAULTS and --faults both reach the run (their union).
  const faults = [...new Set([...parsed.faults, ...options.faults])];
  if (faults.length > 0 && setting.kind === 'remote') throw new ConfigError('--faults (and CPC_EMULATOR_FAULTS) apply to the embedded emulator only');
  const chaos = options.chaos ?? parsed.chaos;
  checkEmulatorSettings({ faults, variants: parsed.variants, chaos, from: { faults: options.faults.length ? '--faults' : 'CPC_EMULATOR_FAULTS', chaos: options.chaos ? '--chaos' : 'CPC_EMULATOR_CHAOS' } });
  if (options.updateBaseline && !options.baseline) throw new ConfigError('--update-baseline needs --baseline FILE');
  // A broken baseline file is a configuration error before anything runs, not after.
  if (options.baseline) (await import('../reports/baseline.js')).readBaseline(resolve(options.baseline), { allowMissing: options.updateBaseline === true });
  const { defaultTargetName } = await import('../reports/target-name.js');
  const targetName = options.targetName ?? parsed.profile.targetName ?? defaultTargetName(setting.kind, setting.kind === 'remote' ? setting.baseUrl : undefined);
  // A previous report of another target, or an unreadable one, stops the run before it starts.
  const previous = options.previous ? (await import('./saved-report.js')).loadPrevious(resolve(options.previous), targetName) : undefined;
  const given: RunConfig = { ...parsed, faults, ...(chaos ? { chaos } : {}) };
  const replay = replayCommand(given.seed, selectionArgs({ ...options, faults: options.faults }));
  process.stdout.write(`Seed: ${given.seed} (replay: ${replay})\n`);
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, 'raw');
  rmSync(rawDir, { recursive: true, force: true });
  return { options, given, setting, faults, targetName, previous, replay, outDir, rawDir, startedAt: new Date() };
}

/** The arguments that select what ran, for the replay hint (target flags and keys left out). */
function selectionArgs(o: ConformanceOptions): string[] {
  const args: string[] = [];
  if (o.projects.join(',') !== 'contract,property') for (const p of o.projects) args.push('--project', p);
  if (o.grep) args.push('--grep', o.grep);
  if (o.faults.length) args.push('--faults', o.faults.join(','));
  if (o.chaos) args.push('--chaos', formatChaos(o.chaos));
  if (o.shard) args.push('--shard', `${o.shard.index}/${o.shard.total}`);
  return args;
}

/**
 * Step 2: the target, resolved once. The embedded emulator's port is bound now and its code
 * loads while Playwright starts; a deployment must answer, and is asked once whether the
 * emulator's control surface answers there.
 */
async function startTarget(r: Resolved): Promise<Started> {
  if (r.setting.kind === 'embedded') {
    const bound = await bindEmbedded();
    return { target: bound.target, serving: bound.running };
  }
  return { target: await resolveDeployment(r.setting, { reachable: true }) };
}

/**
 * Step 3: on a deployment, the preflight checks and the plan (run/preflight.ts): a configuration
 * problem or a plan over a budget stops the run here, before anything is created. Returns the
 * configuration handed to Playwright.
 */
async function preflightStep(r: Resolved, s: Started): Promise<Handed> {
  const { options, given, outDir } = r;
  const workers = workersFor(options.workers ?? given.workers, s.target.control);
  const budgets = budgetsOf(given.profile, options.budgets ?? {});
  let deployment: Partial<RunConfig> = {};
  rmSync(join(outDir, 'plan.json'), { force: true });
  rmSync(join(outDir, FORECAST_CHECK_FILE), { force: true });
  if (s.target.kind === 'remote' && !options.skipPreflight) {
    const [{ blockers, preflight, preflightText, listedTests }, { listPlaywright }] = await Promise.all([import('./preflight.js'), import('./playwright.js')]);
    // The plan is of the tests this run selects (its suites, --grep and --shard).
    const select = [...(options.grep ? ['--grep', options.grep] : []), ...(options.shard ? [`--shard=${options.shard.index}/${options.shard.total}`] : [])];
    const pre = await preflight({ ...given, target: s.target, workers },
      { listTests: async () => listedTests(await listPlaywright({ ...given, target: s.target, suites: options.projects }, select)), requestEstimates: readRequestEstimates() });
    if (!pre.ready) {
      process.stderr.write(preflightText(pre) + '\n');
      throw new ConfigError(`preflight: the target is not ready (${blockers(pre).join(', ')}); nothing was run`);
    }
    const breaches = pre.creates ? budgetBreaches(pre.creates, budgets) : [];
    if (breaches.length) {
      process.stderr.write(preflightText(pre) + '\n');
      throw new ConfigError(`the plan is over budget: ${breaches.join('; ')}; nothing was run (raise the budget, or --skip-preflight to run until it is reached)`, breaches[0]!.split(':')[0]);
    }
    const c = pre.creates;
    process.stdout.write(`Preflight: ready (${pre.plan ? `${pre.plan.runs.length} rule(s) will run, ${pre.plan.skipped.length} skipped by capability; ` : ''}${pre.longWaitLane ? `the long waits run beside the suite in a worker of their own (${pre.longWaitLane.tests} test(s)); ` : ''}${c ? `plan: ${c.counts.gpuPods} GPU + ${c.counts.cpuPods} CPU pods, ${c.counts.networkVolumes} volumes, ${c.counts.endpoints} endpoints, about ${c.requests} requests, ${c.estimatedCostUsd !== undefined ? `USD ${c.estimatedCostUsd.toFixed(2)} at most` : 'cost unknown'}; ` : ''}cpc preflight shows the plan)\n`);
    if (c) {
      mkdirSync(outDir, { recursive: true });
      const { catalog, counts, pools, requests, estimatedCostUsd, workerTime } = c;
      const planFile: PlanFile = { counts, pools, requests, ...(estimatedCostUsd !== undefined ? { estimatedCostUsd } : {}), ...(workerTime ? { workerTime } : {}), ...(pre.plan ? { forecast: pre.plan } : {}) };
      writeFileSync(join(outDir, 'plan.json'), JSON.stringify(planFile, null, 2) + '\n');
      // The catalog as preflight read it: the run reads it once, not once per worker or test.
      const folder = catalog ? openRunFolder(given) : undefined;
      const catalogFile = folder ? join(folder, 'catalog.json') : undefined;
      if (catalogFile) writeFileSync(catalogFile, JSON.stringify(catalog));
      deployment = { ...(catalogFile ? { catalogFile } : {}), ...(c.prices ? { prices: c.prices } : {}), provision: c.provision ?? { endpoint: false, hold: false, template: false } };
    }
  }
  return { ...given, target: s.target, rawDir: r.rawDir, suites: options.projects, ...deployment,
    ...(Object.keys(budgets).length ? { budgets } : {}), workers };
}

/** What {@link runSuites} leaves: Playwright's outcome, the load scenarios run beside it, the report's modules. */
interface Ran {
  run: SupervisedRun;
  emulator?: EmbeddedTarget;
  wantLoad: boolean;
  loadDir: string;
  beside?: ReturnType<typeof startLoadBeside>;
  modules: ReturnType<typeof afterRun>;
}

/**
 * Step 4: the suites through Playwright, supervised (a deployment that stops answering stops
 * the run), and against the embedded emulator the load scenarios beside them, in a process and
 * on an emulator of their own (load-beside.ts). A sharded run's load scenarios run with shard 1.
 */
async function runSuites(r: Resolved, s: Started, handed: Handed): Promise<Ran> {
  const { options, outDir } = r;
  const args = [...(options.grep ? ['--grep', options.grep] : []),
    // The suite's workers, and the long-wait lane's one beside them on a deployment that opts in (lib/lanes.ts).
    `--workers=${totalWorkers(lanesFor(handed.workers, { control: s.target.control, allowLongWaits: handed.allowLongWaits }))}`, ...(options.quiet ? [DOT_REPORTERS] : []),
    `--output=${resolve(options.artifactsDir ?? join(outputRoot(), 'test-results'))}`,
    ...(options.shard ? [`--shard=${options.shard.index}/${options.shard.total}`] : [])];
  const wantLoad = options.load === 'on' || ((options.load ?? 'auto') === 'auto' && s.target.kind === 'embedded' && (options.shard?.index ?? 1) === 1);
  const loadDir = options.loadDir ? resolve(options.loadDir) : join(outDir, 'load');
  const supervised = runSupervised(args, handed, s.target.kind === 'remote'
    ? { url: s.target.baseUrl, everyMs: options.probeEveryMs ?? 15_000, failures: 3, ...(handed.budgetFiles ? { activity: handed.budgetFiles.requests } : {}) }
    : undefined);
  const modules = afterRun();
  modules.catch(() => undefined);
  let beside: ReturnType<typeof startLoadBeside> | undefined;
  if (wantLoad && s.target.kind === 'embedded') {
    rmSync(loadDir, { recursive: true, force: true });
    beside = startLoadBeside(loadDir, options.quiet);
  }
  // Either failing ends the command at once: Playwright that cannot start, or an emulator that
  // cannot load (and, as the command exits, Playwright's process group with it).
  let emulator: EmbeddedTarget | undefined;
  const [run] = await Promise.all([supervised, s.serving?.then((e) => { emulator = e; })]);
  return { run, ...(emulator ? { emulator } : {}), wantLoad, loadDir, ...(beside ? { beside } : {}), modules };
}

/** What {@link collect} gathered for the report. */
interface Collected {
  interruption: string | undefined;
  raw: ReturnType<Awaited<ReturnType<typeof afterRun>>[2]['readRaw']>;
  ranLoad: boolean;
}

/**
 * Step 5: why the run ended early (if it did), the load scenarios' results (after the suites on
 * a deployment), and the raw results. The raw reporter is the one place raw results are
 * redacted (reports/playwright-reporter.ts).
 */
async function collect(r: Resolved, s: Started, ran: Ran): Promise<Collected> {
  const [, , { readRaw }] = await ran.modules;
  let interruption = ran.run.interruptedBy ? `interrupted by ${ran.run.interruptedBy}` : ran.run.targetLost;
  if (!interruption && s.target.kind === 'remote') {
    const why = await probe(s.target.baseUrl, 10_000);
    if (why) interruption = `the target stopped answering ${s.target.baseUrl} (${why})`;
  }
  const ranLoad = !interruption && ran.wantLoad;
  if (ran.beside) {
    // An interrupted run reads no load summaries: the scenarios stop with it.
    if (interruption) ran.beside.stop();
    const ended = await ran.beside.finished;
    if (ranLoad) process.stdout.write(ended.output);
  } else if (ranLoad) {
    rmSync(ran.loadDir, { recursive: true, force: true });
    const { runLoadScenarios } = await import('./load.js');
    await runLoadScenarios({ target: s.target, env: process.env, outDir: ran.loadDir, quietScripts: r.options.quiet });
  }
  await ran.emulator?.close();
  const raw = readRaw(r.rawDir);
  if (!interruption && raw.status === 'interrupted') interruption = 'the test runner was interrupted';
  if (!interruption && raw.status === 'timedout') interruption = 'the test runner hit its global time limit';
  if (!interruption && !raw.ended) interruption = `the test runner ended early (exit code ${ran.run.code})`;
  return { interruption, raw, ranLoad };
}

/** Step 6: the report's model from the raw results, the load summaries and what the run was. */
async function buildReportStep(r: Resolved, s: Started, handed: Handed, ran: Ran, c: Collected): Promise<ConformanceReport> {
  const [{ loadRules }, { buildReport }, , { readLoadResults }, { mutationSectionOf }] = await ran.modules;
  const { options } = r;
  const rules = loadRules();
  // Summaries of this run's load scenarios, or of a folder named on purpose; never stale ones.
  const load = c.ranLoad || options.loadDir ? readLoadResults(ran.loadDir, PROJECT_ROOT, new Set(rules.map((x) => x.id))) : undefined;
  // The last `npm run mutation` of this output folder, when there is one.
  const mutation = mutationSectionOf(r.outDir, PROJECT_ROOT);
  const keys = keysOf(s.target);
  const target: TargetIdentity = {
    kind: s.target.kind, name: r.targetName,
    baseUrl: s.target.baseUrl, serverlessUrl: s.target.serverlessUrl, restV1Url: s.target.restV1Url,
    ...(keys.endpointId ? { endpointId: keys.endpointId } : {}),
    keys: { main: keys.apiKey !== undefined, readonly: keys.apiKeyReadonly !== undefined, other: keys.apiKeyOther !== undefined },
    emulator: s.target.control,
    faults: r.faults.map((id) => ({ id, ...(isFaultId(id) ? { rule: faultCatalog[id].rule, description: faultCatalog[id].description } : {}) })),
    ...(handed.variants.length ? { variants: handed.variants } : {}),
    ...(handed.chaos ? { chaos: handed.chaos } : {}),
  };
  const report = buildReport({
    rules, raw: c.raw.tests, planned: c.raw.planned, target, startedAt: r.startedAt, finishedAt: new Date(),
    complete: c.interruption === undefined, ...(c.interruption ? { interruption: c.interruption } : {}),
    seed: handed.seed, replay: r.replay, suiteVersion: SUITE_VERSION,
    configuration: {
      projects: options.projects.join(','), workers: handed.workers,
      ...(options.grep ? { grep: options.grep } : {}),
      ...(options.baseline ? { baseline: options.baseline } : {}),
      load: c.ranLoad,
      ...(options.shard ? { shard: `${options.shard.index}/${options.shard.total}`, partial: true } : {}),
    },
    ...(load ? { load } : {}),
    ...(mutation ? { mutation } : {}),
  });
  return r.previous ? (await import('../reports/changes.js')).withChanges(report, r.previous.report, r.previous.file) : report;
}

/** Step 7: every format written, and the exit code the report and the gates give. */
async function publishStep(r: Resolved, ran: Ran, report: ConformanceReport): Promise<ConformanceOutcome> {
  const [, , , , , { exitCodeOfReport, publish }] = await ran.modules;
  const { options } = r;
  const published = publish(report, r.outDir, options.baseline ? { path: resolve(options.baseline), update: options.updateBaseline === true } : undefined);
  const requireAllMust = options.requireAllMust === true || r.given.profile.requireAllMust === true;
  return { ...published, exitCode: exitCodeOfReport(published.report, ran.run.interruptedBy !== undefined, options.failOnBlocked, requireAllMust) };
}

/** Where the check of preflight's forecast against the run is written, beside the report. */
const FORECAST_CHECK_FILE = 'forecast-check.json';

/**
 * After a run preflight planned: where the run decided otherwise than the forecast, it says so,
 * and writes the check beside the report ({@link FORECAST_CHECK_FILE}; plan.json stays as
 * preflight wrote it, read with the run's time window by the cost section).
 */
async function checkForecast(outDir: string, report: ConformanceReport): Promise<void> {
  const file = join(outDir, 'plan.json');
  if (!existsSync(file)) return;
  const forecast = (JSON.parse(readFileSync(file, 'utf8')) as PlanFile).forecast;
  if (!forecast) return;
  const { forecastMismatches } = await import('./provision/forecast-check.js');
  const differ = forecastMismatches(forecast, report.rules);
  const check: ForecastCheckFile = { held: differ.length === 0, runs: forecast.runs.length, skipped: forecast.skipped.length, mismatches: differ };
  writeFileSync(join(outDir, FORECAST_CHECK_FILE), JSON.stringify(check, null, 2) + '\n');
  process.stdout.write(differ.length ? `preflight's forecast and the run differ on ${differ.length} rule(s):\n${differ.map((d) => `  ${d}`).join('\n')}\n` : `preflight's forecast held: ${forecast.runs.length} rule(s) forecast to run, ${forecast.skipped.length} to be skipped\n`);
}

/**
 * The main job, step by step. An interrupted run (a signal, or a target that stops answering)
 * still writes a report, marked incomplete.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  const resolved = await resolveConfiguration(options);
  try {
    const started = await startTarget(resolved);
    const handed = await preflightStep(resolved, started);
    const ran = await runSuites(resolved, started, handed);
    // From here the report gets written whatever happens; a further Ctrl-C waits for it.
    const hold = () => process.stderr.write('cpc: writing the report of the interrupted run…\n');
    process.on('SIGINT', hold);
    process.on('SIGTERM', hold);
    try {
      const collected = await collect(resolved, started, ran);
      const report = await buildReportStep(resolved, started, handed, ran, collected);
      await checkForecast(resolved.outDir, report);
      return await publishStep(resolved, ran, report);
    } finally {
      process.off('SIGINT', hold);
      process.off('SIGTERM', hold);
    }
  } finally {
    // Playwright's teardown removes the run's folder; this covers a run that never reached it
    // (preflight's catalog written, then a stop) and keeps a record that lists something undeleted.
    closeRunFolder(resolved.given);
  }
}
