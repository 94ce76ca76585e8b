import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ConfigKey, TargetConfig } from '../../lib/config.js';
import { parseRunConfig } from '../../lib/run-config.js';
import type { PlanFile } from '../../lib/protocol.js';
import { type RunConfig } from '../../lib/protocol.js';
import type { SuiteName } from '../../lib/suites.js';
import { bindEmbedded, type EmbeddedTarget } from '../../run/embedded.js';
import { ConfigError, TargetUnreachableError } from '../../lib/errors.js';
import { faultCatalog, isFaultId } from '../../emulator/faults.js';
import type { ConformanceReport, TargetIdentity } from '../../reports/model.js';
import { SUITE_VERSION, PROJECT_ROOT, outputRoot } from '../../run/paths.js';
import { replayCommand } from '../../run/replay.js';
import { probe, runSupervised } from '../../run/supervise.js';
import { startLoadBeside } from '../../run/load-beside.js';
import type { BlockedGate } from '../../run/publish.js';
import { budgetBreaches, type Budgets } from '../../lib/plan.js';
import { budgetsOf, readRequestEstimates } from '../../run/budgets.js';

// What only a deployment needs (the preflight, the control surface probe) and what runs after
// the suites (reading the results, building and writing the report) is imported where it is
// used: against the embedded emulator, Playwright starts without waiting for those modules.
const afterRun = () => Promise.all([
  import('../../lib/rules.js'), import('../../reports/build.js'), import('../../reports/raw-read.js'), import('../../reports/raw-scrub.js'),
  import('../../reports/load.js'), import('../../reports/mutation.js'), import('../../run/publish.js'),
]);

export interface ConformanceOptions {
  flags: Partial<Record<ConfigKey, string>>;
  outDir: string;
  projects: SuiteName[];
  grep?: string;
  workers?: number;
  faults: string[];
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
  /** `--max-*` flags; each wins over the profile's (lib/plan.ts). */
  budgets?: Budgets;
}

export interface ConformanceOutcome { report: ConformanceReport; exitCode: number; files: string[] }

/** The arguments that select what ran, for the replay hint (target flags and keys left out). */
function selectionArgs(o: ConformanceOptions): string[] {
  const args: string[] = [];
  if (o.projects.join(',') !== 'contract,property') for (const p of o.projects) args.push('--project', p);
  if (o.grep) args.push('--grep', o.grep);
  if (o.faults.length) args.push('--faults', o.faults.join(','));
  if (o.shard) args.push('--shard', `${o.shard.index}/${o.shard.total}`);
  return args;
}

async function checkOptions(config: TargetConfig, o: ConformanceOptions): Promise<void> {
  if (o.faults.length > 0 && config.kind === 'remote') throw new ConfigError('--faults applies to the embedded emulator only');
  const unknown = o.faults.filter((f) => !isFaultId(f));
  if (unknown.length) throw new ConfigError(`unknown fault(s): ${unknown.join(', ')} (known: ${Object.keys(faultCatalog).join(', ')})`);
  if (o.updateBaseline && !o.baseline) throw new ConfigError('--update-baseline needs --baseline FILE');
  // A broken baseline file is a configuration error before anything runs, not after.
  if (o.baseline) {
    const { readBaseline } = await import('../../reports/baseline.js');
    readBaseline(resolve(o.baseline), { allowMissing: o.updateBaseline === true });
  }
}

/**
 * The main job: resolve the target (start the embedded emulator when none is configured),
 * run the contract and property suites through Playwright with one seed, merge the load
 * summaries, build the result model and write every format. An interrupted run (a signal,
 * or a target that stops answering) still writes a report, marked incomplete.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  // The run's configuration, written once here and handed to Playwright as one value.
  const parsed: RunConfig = parseRunConfig(process.env, options.flags);
  // CPC_EMULATOR_FAULTS and --faults both reach the run (their union).
  const faults = [...new Set([...parsed.faults, ...options.faults])];
  const given: RunConfig = { ...parsed, faults };
  const config = given.target;
  await checkOptions(config, { ...options, faults });
  const { defaultTargetName } = await import('../../reports/target-name.js');
  const targetName = options.targetName ?? given.profile.targetName ?? defaultTargetName(config.kind, config.baseUrl);
  // A previous report of another target, or an unreadable one, stops the run before it starts.
  const previous = options.previous ? (await import('../../run/saved-report.js')).loadPrevious(resolve(options.previous), targetName) : undefined;
  const seed = given.seed;
  const replay = replayCommand(seed, selectionArgs(options));
  process.stdout.write(`Seed: ${seed} (replay: ${replay})\n`);
  const startedAt = new Date();
  const outDir = resolve(options.outDir);
  const rawDir = join(outDir, 'raw');
  rmSync(rawDir, { recursive: true, force: true });

  let emulator: EmbeddedTarget | undefined;
  // The embedded emulator's port is bound now and its code loads while Playwright starts.
  let serving: Promise<EmbeddedTarget> | undefined;
  let resolved: TargetConfig = config;
  let isEmulator = config.kind === 'embedded';
  if (config.kind === 'embedded') {
    const bound = await bindEmbedded();
    resolved = bound.target;
    serving = bound.running;
  } else {
    const why = await probe(config.baseUrl!, 10_000);
    if (why) throw new TargetUnreachableError(config.baseUrl!, why);
    const { EmulatorControl } = await import('../../lib/client/control.js');
    isEmulator = (await EmulatorControl.detect(config.baseUrl!)) !== undefined;
  }
  // A deployment runs with one worker unless told otherwise: its rate limit, not the workers,
  // sets the pace, and pooled resources are made once per worker (lib/plan.ts).
  const workers = options.workers ?? (config.kind === 'remote' && !isEmulator ? 1 : undefined);
  const budgets = budgetsOf(given.profile, options.budgets ?? {});
  const runId = randomBytes(4).toString('hex');
  let deployment: Partial<RunConfig> = {};
  if (config.kind === 'remote' && !options.skipPreflight) {
    // A configuration problem (a refused key, a missing id, a surface that does not answer) or a
    // plan over a budget stops the run here, before anything is created.
    const [{ blockers, preflight, preflightText, listedTests }, { listPlaywright }] = await Promise.all([import('../../run/preflight.js'), import('../../run/playwright.js')]);
    // The plan is of the tests this run selects (its suites, --grep and --shard).
    const select = [...(options.grep ? ['--grep', options.grep] : []), ...(options.shard ? [`--shard=${options.shard.index}/${options.shard.total}`] : [])];
    const pre = await preflight({ ...given, ...(workers ? { workers } : {}) }, { listTests: async () => listedTests(await listPlaywright({ ...given, suites: options.projects }, select)), requestEstimates: readRequestEstimates() });
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
    process.stdout.write(`Preflight: ready (${pre.plan ? `${pre.plan.runs.length} rule(s) will run, ${pre.plan.skipped.length} skipped by capability; ` : ''}${c ? `plan: ${c.counts.gpuPods} GPU + ${c.counts.cpuPods} CPU pods, ${c.counts.networkVolumes} volumes, ${c.counts.endpoints} endpoints, about ${c.requests} requests, ${c.estimatedCostUsd !== undefined ? `USD ${c.estimatedCostUsd.toFixed(2)} at most` : 'cost unknown'}; ` : ''}cpc preflight shows the plan)\n`);
    if (c) {
      mkdirSync(outDir, { recursive: true });
      const { catalog, counts, pools, requests, estimatedCostUsd } = c;
      const planFile: PlanFile = { counts, pools, requests, ...(estimatedCostUsd !== undefined ? { estimatedCostUsd } : {}) };
      writeFileSync(join(outDir, 'plan.json'), JSON.stringify(planFile, null, 2) + '\n');
      // The catalog as preflight read it: the run reads it once, not once per worker or test.
      const catalogFile = join(tmpdir(), `cpc-catalog-${runId}.json`);
      if (catalog) writeFileSync(catalogFile, JSON.stringify(catalog));
      deployment = { ...(catalog ? { catalogFile } : {}), ...(c.prices ? { prices: c.prices } : {}) };
    }
  } else rmSync(join(outDir, 'plan.json'), { force: true });
  const budgetFiles = { requests: join(tmpdir(), `cpc-requests-${runId}.count`), pods: join(tmpdir(), `cpc-pods-${runId}.jsonl`) };
  const handed: RunConfig = { ...given, target: resolved, rawDir, faults, suites: options.projects, runId, budgetFiles, ...deployment,
    ...(Object.keys(budgets).length ? { budgets } : {}), ...(workers ? { workers } : {}) };

  const args = [...(options.grep ? ['--grep', options.grep] : []),
    ...(workers ? [`--workers=${workers}`] : []), ...(options.quiet ? ['--reporter=dot,./reports/playwright-reporter.ts'] : []),
    `--output=${resolve(options.artifactsDir ?? join(outputRoot(), 'test-results'))}`,
    ...(options.shard ? [`--shard=${options.shard.index}/${options.shard.total}`] : [])];
  // The load scenarios (smoke scale on the Node path, or k6 when on PATH). Against the embedded
  // emulator they run beside the suites, in a process and on an emulator of their own
  // (load-beside.ts); against a deployment after the suites, on the same target. A sharded
  // run's load scenarios run once, with shard 1.
  const wantLoad = options.load === 'on' || ((options.load ?? 'auto') === 'auto' && config.kind === 'embedded' && (options.shard?.index ?? 1) === 1);
  const loadDir = options.loadDir ? resolve(options.loadDir) : join(outDir, 'load');
  const everyMs = options.probeEveryMs ?? 15_000;
  const supervised = runSupervised(args, handed,
    config.kind === 'remote' ? { url: config.baseUrl!, everyMs, failures: 3, activity: budgetFiles.requests } : undefined);
  // The report's modules load while the suites run (awaited once they end; a failure is thrown there).
  const reportModules = afterRun();
  reportModules.catch(() => undefined);
  let beside: ReturnType<typeof startLoadBeside> | undefined;
  if (wantLoad && config.kind === 'embedded') {
    rmSync(loadDir, { recursive: true, force: true });
    beside = startLoadBeside(loadDir, options.quiet);
  }
  // Either failing ends the command at once: Playwright that cannot start, or an emulator that
  // cannot load (and, as the command exits, Playwright's process group with it).
  const [run] = await Promise.all([supervised, serving?.then((e) => { emulator = e; })]);

  // From here the report gets written whatever happens; a further Ctrl-C waits for it.
  const hold = () => process.stderr.write('cpc: writing the report of the interrupted run…\n');
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  try {
    const [{ loadRules }, { buildReport }, { readRaw }, { scrubRawFile }, { readLoadResults }, { mutationSectionOf }, { exitCodeOf, publish }] = await reportModules;
    let interruption = run.interruptedBy ? `interrupted by ${run.interruptedBy}` : run.targetLost;
    if (!interruption && config.kind === 'remote') {
      const why = await probe(config.baseUrl!, 10_000);
      if (why) interruption = `the target stopped answering ${config.baseUrl!} (${why})`;
    }
    const runLoad = !interruption && wantLoad;
    if (beside) {
      // An interrupted run reads no load summaries: the scenarios stop with it.
      if (interruption) beside.stop();
      const ended = await beside.finished;
      if (runLoad) process.stdout.write(ended.output);
    } else if (runLoad) {
      rmSync(loadDir, { recursive: true, force: true });
      const { runLoadScenarios } = await import('./load.js');
      await runLoadScenarios({ target: resolved, env: process.env, outDir: loadDir, quietScripts: options.quiet });
    }
    await emulator?.close();
    scrubRawFile(rawDir);
    const raw = readRaw(rawDir);
    if (!interruption && raw.status === 'interrupted') interruption = 'the test runner was interrupted';
    if (!interruption && raw.status === 'timedout') interruption = 'the test runner hit its global time limit';
    if (!interruption && !raw.ended) interruption = `the test runner ended early (exit code ${run.code})`;

    const rules = loadRules();
    // Summaries of this run's load scenarios, or of a folder named on purpose; never stale ones.
    const load = runLoad || options.loadDir ? readLoadResults(loadDir, PROJECT_ROOT, new Set(rules.map((r) => r.id))) : undefined;
    // The last `npm run mutation` of this output folder, when there is one.
    const mutation = mutationSectionOf(outDir, PROJECT_ROOT);
    const target: TargetIdentity = {
      kind: config.kind, name: targetName,
      baseUrl: resolved.baseUrl!, serverlessUrl: resolved.serverlessUrl!, restV1Url: resolved.restV1Url!,
      ...(config.endpointId ? { endpointId: config.endpointId } : {}),
      keys: { main: config.apiKey !== undefined, readonly: config.apiKeyReadonly !== undefined, other: config.apiKeyOther !== undefined },
      emulator: isEmulator,
      faults: faults.map((id) => ({ id, ...(isFaultId(id) ? { rule: faultCatalog[id].rule, description: faultCatalog[id].description } : {}) })),
    };
    const report = buildReport({
      rules, raw: raw.tests, planned: raw.planned, target, startedAt, finishedAt: new Date(),
      complete: interruption === undefined, ...(interruption ? { interruption } : {}),
      seed, replay, suiteVersion: SUITE_VERSION,
      configuration: {
        projects: options.projects.join(','), workers: workers ?? 2,
        ...(options.grep ? { grep: options.grep } : {}),
        ...(options.baseline ? { baseline: options.baseline } : {}),
        load: runLoad,
        ...(options.shard ? { shard: `${options.shard.index}/${options.shard.total}`, partial: true } : {}),
      },
      ...(load ? { load } : {}),
      ...(mutation ? { mutation } : {}),
    });
    const compared = previous ? (await import('../../reports/changes.js')).withChanges(report, previous.report, previous.file) : report;
    const published = publish(compared, outDir, options.baseline ? { path: resolve(options.baseline), update: options.updateBaseline === true } : undefined);
    return { ...published, exitCode: exitCodeOf(published.report, run.interruptedBy !== undefined, options.failOnBlocked) };
  } finally {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
  }
}
