#!/usr/bin/env -S npx tsx
/**
 * cpc: the Compute Platform conformance suite's command line (installed as `cpc` by
 * bin/cpc.js; from a clone `npx tsx bin/cpc.ts` or the npm scripts).
 *
 * Exit codes: 0 conformant (with --baseline: no change; preflight: ready), 1 a MUST rule failed,
 * a test failed or the baseline changed (diff: the reports differ), 2 configuration error,
 * 130 interrupted. Errors print one line, never a stack trace; the error catalog (lib/errors.ts)
 * gives each error its code and exit code (2 for configuration and input). `cpc help <command>` and
 * `cpc <command> --help` print a command's usage.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, UsageError, errorLine, exitCodeOf } from '../lib/errors.js';
import { ENV_VARS, flagOf, type ConfigKey } from '../lib/config.js';
import { PROJECT_ROOT, defaultOutDir, tsxLoader } from '../run/paths.js';
import { USAGE, USAGES } from './usage.js';
import { exitOf } from '../run/child.js';
import { SUITE_NAMES, isSuiteName } from '../lib/suites.js';
import { formatChaos, parseChaos } from '../lib/chaos/options.js';
import { budgetBreaches, type Budgets } from '../lib/plan.js';
import { redactText } from '../lib/redact.js';

// Each command's modules load when that command runs (`await import`), so help, usage errors
// and configuration errors answer without loading the suite, the reports and Playwright.

const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: T, positionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: positionals });
  } catch (e) {
    throw new UsageError((e as Error).message, USAGES[command] ?? USAGE);
  }
}

const targetOptions = Object.fromEntries((Object.keys(ENV_VARS) as ConfigKey[]).map((k) => [flagOf(k), { type: 'string' as const }]));

function targetFlags(values: Record<string, unknown>): Partial<Record<ConfigKey, string>> {
  const flags: Partial<Record<ConfigKey, string>> = {};
  for (const k of Object.keys(ENV_VARS) as ConfigKey[]) {
    const value = values[flagOf(k)];
    if (typeof value === 'string') flags[k] = value;
  }
  return flags;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'help') {
    const about = rest[0];
    if (about !== undefined && !(about in USAGES)) throw new UsageError(`unknown command "${about}"`, USAGE);
    process.stdout.write(about === undefined ? USAGE : USAGES[about]!);
    return 0;
  }
  if (!(command in USAGES)) throw new UsageError(`unknown command "${command}"`, USAGE);
  if (wantsHelp(rest)) {
    process.stdout.write(USAGES[command]!);
    return 0;
  }
  switch (command) {
    case 'conformance': return conformanceCommand(rest);
    case 'preflight': return preflightCommand(rest);
    case 'report': return rest[0] === 'diff' ? (await import('./commands/diff.js')).diffCommand(rest.slice(1)) : (await import('./commands/report.js')).reportCommand(rest);
    case 'diff': return (await import('./commands/diff.js')).diffCommand(rest);
    case 'detect': return detectCommand(rest);
    case 'emulator': return runScript(join(PROJECT_ROOT, 'emulator', 'main.ts'), rest);
    default: return runScript(join(PROJECT_ROOT, 'bin', 'commands', 'load.ts'), rest.includes('--out') || rest.some((a) => a.startsWith('--out=')) ? rest : [...rest, '--out', defaultOutDir('load')]);
  }
}

async function conformanceCommand(rest: string[]): Promise<number> {
  const parsed = parse('conformance', rest, {
    ...targetOptions,
    out: { type: 'string' }, project: { type: 'string', multiple: true }, grep: { type: 'string' },
    workers: { type: 'string' }, faults: { type: 'string' }, 'quiet-summary': { type: 'boolean' },
    baseline: { type: 'string' }, 'update-baseline': { type: 'boolean' }, 'load-dir': { type: 'string' }, 'probe-every': { type: 'string' }, artifacts: { type: 'string' },
    load: { type: 'boolean' }, 'skip-load': { type: 'boolean' }, shard: { type: 'string' }, 'skip-preflight': { type: 'boolean' },
    'target-name': { type: 'string' }, previous: { type: 'string' }, 'fail-on-blocked': { type: 'string' },
    chaos: { type: 'string' }, ...budgetOptions,
  });
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  // Legal chaos reaches the run configuration as its variable does (lib/run-config.ts).
  if (typeof v.chaos === 'string') process.env.CPC_EMULATOR_CHAOS = formatChaos(parseChaos(v.chaos, '--chaos'));
  const projects = (v.project as string[] | undefined) ?? [...SUITE_NAMES];
  const unknownProject = projects.find((p) => !isSuiteName(p));
  if (unknownProject !== undefined) throw new ConfigError(`--project is contract or property, got "${unknownProject}"`, '--project');
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(v.workers)}"`, '--workers');
  const probeEvery = v['probe-every'] === undefined ? undefined : Number(v['probe-every']);
  if (probeEvery !== undefined && !(Number.isInteger(probeEvery) && probeEvery >= 100)) throw new ConfigError(`--probe-every must be an integer of at least 100 (ms), got "${String(v['probe-every'])}"`, '--probe-every');
  const { runConformance } = await import('./commands/conformance.js');
  const { parseShard } = await import('../reports/merge.js');
  const outcome = await runConformance({
    flags: targetFlags(v),
    outDir: typeof v.out === 'string' ? v.out : defaultOutDir(),
    projects: projects.filter(isSuiteName),
    ...(typeof v.grep === 'string' ? { grep: v.grep } : {}),
    ...(workers ? { workers } : {}),
    faults: typeof v.faults === 'string' ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [],
    quiet: v['quiet-summary'] === true,
    ...(typeof v.baseline === 'string' ? { baseline: v.baseline } : {}),
    updateBaseline: v['update-baseline'] === true,
    ...(typeof v['load-dir'] === 'string' ? { loadDir: v['load-dir'] } : {}),
    ...(probeEvery ? { probeEveryMs: probeEvery } : {}),
    ...(typeof v.artifacts === 'string' ? { artifactsDir: v.artifacts } : {}),
    load: loadChoice(v.load === true, v['skip-load'] === true),
    ...(typeof v.shard === 'string' ? { shard: parseShard(v.shard) } : {}),
    skipPreflight: v['skip-preflight'] === true,
    ...(typeof v['target-name'] === 'string' ? { targetName: targetNameFlag(v['target-name']) } : {}),
    ...(typeof v.previous === 'string' ? { previous: v.previous } : {}),
    ...(typeof v['fail-on-blocked'] === 'string' ? { failOnBlocked: (await import('../run/publish.js')).parseBlockedGate(v['fail-on-blocked']) } : {}),
    budgets: await budgetFlags(v),
  });
  return outcome.exitCode;
}

const budgetOptions = { 'max-pods': { type: 'string' }, 'max-gpu-pods': { type: 'string' }, 'max-requests': { type: 'string' }, 'max-cost': { type: 'string' } } as const;

/** `--max-pods`, `--max-gpu-pods`, `--max-requests`, `--max-cost` (each wins over the profile's). */
async function budgetFlags(v: Record<string, unknown>): Promise<Budgets> {
  const { parseBudget } = await import('../lib/profile.js');
  const out: Budgets = {};
  for (const [flag, field] of [['max-pods', 'pods'], ['max-gpu-pods', 'gpuPods'], ['max-requests', 'requests'], ['max-cost', 'costUsd']] as const) {
    if (typeof v[flag] === 'string') out[field] = parseBudget(field, v[flag], `--${flag}`, `--${flag}`);
  }
  return out;
}

/** `--target-name`: a label of one line (it names a report history). */
function targetNameFlag(name: string): string {
  if (name.trim() === '' || [...name].some((c) => c.charCodeAt(0) < 0x20)) throw new ConfigError(`--target-name must be a non-empty label of one line, got ${JSON.stringify(name)}`, '--target-name');
  return name.trim();
}

function loadChoice(on: boolean, off: boolean): 'auto' | 'on' | 'off' {
  if (on && off) throw new ConfigError('--load and --skip-load exclude each other', '--load');
  return on ? 'on' : off ? 'off' : 'auto';
}

async function preflightCommand(rest: string[]): Promise<number> {
  const { values } = parse('preflight', rest, { ...targetOptions, ...budgetOptions, json: { type: 'boolean' }, workers: { type: 'string' } });
  const { parseRunConfig } = await import('../lib/run-config.js');
  const { listedTests, preflight, preflightText } = await import('../run/preflight.js');
  const { listPlaywright } = await import('../run/playwright.js');
  const run = parseRunConfig(process.env, targetFlags(values));
  const config = run.target;
  if (config.kind === 'embedded') {
    process.stdout.write('No target configured (CPC_BASE_URL unset): cpc conformance tests the embedded emulator, which has every key, id and capability. Ready.\n');
    return 0;
  }
  const { readRequestEstimates, budgetsOf } = await import('../run/budgets.js');
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(values.workers)}"`, '--workers');
  const result = await preflight({ ...run, ...(workers ? { workers } : {}) }, { listTests: async () => listedTests(await listPlaywright(run)), requestEstimates: readRequestEstimates() });
  const budgets = budgetsOf(run.profile, await budgetFlags(values as Record<string, unknown>));
  const breaches = result.creates ? budgetBreaches(result.creates, budgets) : [];
  if (values.json === true) {
    const { catalog: _catalog, ...creates } = result.creates ?? {};
    process.stdout.write(redactText(JSON.stringify({ ...result, ...(result.creates ? { creates } : {}), budgets, breaches }, null, 2)) + '\n');
  } else {
    process.stdout.write(preflightText(result) + '\n');
    for (const b of breaches) process.stdout.write(`Over budget: ${b}\n`);
  }
  return result.ready && breaches.length === 0 ? 0 : 2;
}

async function detectCommand(args: string[]): Promise<number> {
  const v = parse('detect', args, { faults: { type: 'string' }, 'per-fault': { type: 'string' }, out: { type: 'string' }, workers: { type: 'string' }, full: { type: 'boolean' }, variants: { type: 'string' }, chaos: { type: 'string' } }).values;
  const perFault = v['per-fault'] === undefined ? undefined : Number(v['per-fault']);
  if (perFault !== undefined && !(Number.isInteger(perFault) && perFault > 0)) throw new ConfigError(`--per-fault must be a positive integer, got "${v['per-fault']}"`, '--per-fault');
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${v.workers}"`, '--workers');
  const { runDetection } = await import('./commands/detect.js');
  const { exitCode } = await runDetection({
    outDir: v.out ?? defaultOutDir(),
    faults: v.faults ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [],
    ...(perFault ? { perFault } : {}),
    ...(workers ? { workers } : {}),
    ...(v.full ? { full: true } : {}),
    ...(v.variants ? { variants: v.variants.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
    ...(v.chaos !== undefined ? { chaos: parseChaos(v.chaos, '--chaos') } : {}),
  });
  return exitCode;
}

/** Runs one of the suite's own scripts in a child Node (with tsx), forwarding signals; its exit code is ours. */
async function runScript(script: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, [`--import=${tsxLoader()}`, script, ...args], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => { child.kill(signal); };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await exitOf(child, undefined, (e) => { process.stderr.write(`cpc: cannot start ${script}: ${e.message}\n`); });
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  return code;
}

/**
 * Ends the process with `code` once its output is written. Whatever is still open (a server,
 * a keep-alive socket, a timer of a failed step) never keeps `cpc` from exiting.
 */
function finish(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => { if (--pending === 0) process.exit(code); };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(
  (code) => finish(code),
  // One line from the error catalog (a usage error adds the command's usage), and its exit code.
  (error: unknown) => {
    process.stderr.write(`cpc: ${errorLine(error)}\n${error instanceof UsageError ? `\n${error.usage}` : ''}`);
    finish(exitCodeOf(error));
  },
);
