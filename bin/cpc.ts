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
import { parseRunConfig } from '../lib/run-config.js';
import { PROFILE_VARIABLES } from '../lib/profile.js';
import { listedTests, preflight, preflightText } from '../lib/preflight.js';
import { parseShard } from '../reports/merge.js';
import { runConformance } from './commands/conformance.js';
import { REPORT_USAGE, reportCommand } from './commands/report.js';
import { DIFF_USAGE, diffCommand } from './commands/diff.js';
import { runDetection } from './commands/detect.js';
import { listPlaywright } from './commands/playwright.js';
import { exitOf } from './commands/child.js';
import { PROJECT_ROOT, defaultOutDir, tsxLoader } from './paths.js';

const TARGET_OPTIONS = `target options (or the environment variables in brackets):
${(Object.keys(ENV_VARS) as ConfigKey[]).map((k) => `  --${flagOf(k).padEnd(18)} [${ENV_VARS[k]}]`).join('\n')}
  target profile (environment): ${Object.values(PROFILE_VARIABLES).join(', ')}
`;

const USAGE = `usage: cpc <command> [options]

commands:
  conformance   run the suite against the target and write reports (default target: embedded emulator)
  preflight     check a configured target without creating anything, and show what a run will do
  report        re-render a saved report, or merge the partial reports of a sharded run
  diff          compare two saved reports rule by rule
  detect        the detection matrix: every emulator fault must fail the rule it breaks
  emulator      start the emulator standalone (prints its URL and keys)
  load          run the load scenarios (k6 when on PATH, else the Node path)
  help          cpc help <command>: that command's options

Reports go to reports/out under the working directory. cpc <command> --help for each command.
`;

const CONFORMANCE_USAGE = `usage: cpc conformance [options]

  Runs the contract and property suites (and, against the embedded emulator, the load
  scenarios) with one seed, and writes conformance.json, junit.xml, report.html and summary.md.
  Against a configured target (CPC_BASE_URL) the preflight checks run first: a configuration
  problem exits 2 before anything is created.

${TARGET_OPTIONS}
run options:
  --out DIR            report folder (default reports/out)
  --project NAME       contract or property (repeatable; default both)
  --grep RE            only tests whose title or rule tag matches
  --workers N          parallel workers (default 2)
  --shard I/N          run slice I of N (Playwright's sharding); the report is partial: merge with cpc report --merge
  --faults id,id       switch emulator faults on (embedded emulator only)
  --quiet-summary      dots instead of one line per test
  --baseline FILE      expectations file of known differences: any change exits 1
  --update-baseline    rewrite the baseline file from this run, on purpose
  --load-dir DIR       load summaries to merge (default <out>/load)
  --probe-every MS     watchdog interval for a remote target (default 15000)
  --artifacts DIR      Playwright's output folder (default test-results)
  --load / --skip-load run the load scenarios (default: with the embedded emulator only, beside the suites;
                       on a deployment after them)
  --skip-preflight     against a configured target, start without the preflight checks

CPC_SEED replays a run; without it a seed is chosen, printed and recorded in the report.
`;

const PREFLIGHT_USAGE = `usage: cpc preflight [target options]

  Against the configured target, without creating anything: checks that REST v2, serverless,
  REST v1 and GraphQL answer, that each key authenticates (the read-only key is refused a
  write, the other key is another account), that the endpoint and template ids exist (CPC_TEMPLATE_ID,
  CPC_MODEL_ENDPOINT_ID too), and reads the catalog. Then prints which rules will run, which
  will be skipped and why, and what the run will create.
  Exit 0 ready, 2 when something required is missing or refused (named by its variable).

${TARGET_OPTIONS}`;

const DETECT_USAGE = `usage: cpc detect [--faults id,id] [--per-fault N] [--workers N] [--out DIR] [--full] [--variants id,id]

  The detection matrix: runs tests with each emulator fault on; every fault must be detected
  by the rule it breaks. Writes detection.json (and re-renders conformance.json of --out).
  --faults id,id       only these faults (default: the whole catalog)
  --per-fault N        tests run per fault
  --full               the whole suite once per fault (nightly): the MUST rules each fault fails,
                       its own among them and at most 3 (detection-full.json)
  --variants id,id     conforming emulator variants or sets (live) on in every world: the suite
                       must still catch every fault (emulator/README.md, Variants)
`;

const EMULATOR_USAGE = `usage: cpc emulator [--port N] [--host H] [--key K] [--clock auto|manual] [--scale N] [--faults id,id] [--quotas m,h,d]

  Starts the emulator standalone and prints its URL, keys and seeded ids as CPC_* lines
  (port 0 picks a free port). Ctrl-C stops it.
`;

const LOAD_USAGE = `usage: cpc load [--runner auto|k6|node] [--scenario NAME ...] [--out DIR] [target options]

  Runs every load scenario against the target (default: the embedded emulator), on k6 when a
  k6 binary is on PATH, else on the Node path at smoke scale. Summaries go to reports/out/load.
  Exit 0 when every scenario passed, k6's code otherwise (99: a threshold failed).
`;

const MERGE_USAGE = `

  cpc report --merge A.json B.json ... [--out DIR] [--baseline FILE]
    Merges the partial reports of every shard of one run (cpc conformance --shard i/n, same
    CPC_SEED) into one report; rule verdicts are computed again from all the tests.
    Exit as cpc conformance: 0 conformant, 1 not, 2 reports that do not belong together.
`;

const USAGES: Record<string, string> = {
  conformance: CONFORMANCE_USAGE, preflight: PREFLIGHT_USAGE, report: REPORT_USAGE + MERGE_USAGE, diff: DIFF_USAGE,
  detect: DETECT_USAGE, emulator: EMULATOR_USAGE, load: LOAD_USAGE,
};

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
    case 'report': return rest[0] === 'diff' ? diffCommand(rest.slice(1)) : reportCommand(rest);
    case 'diff': return diffCommand(rest);
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
  });
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const projects = (v.project as string[] | undefined) ?? ['contract', 'property'];
  for (const p of projects) if (p !== 'contract' && p !== 'property') throw new ConfigError(`--project is contract or property, got "${p}"`, '--project');
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(v.workers)}"`, '--workers');
  const probeEvery = v['probe-every'] === undefined ? undefined : Number(v['probe-every']);
  if (probeEvery !== undefined && !(Number.isInteger(probeEvery) && probeEvery >= 100)) throw new ConfigError(`--probe-every must be an integer of at least 100 (ms), got "${String(v['probe-every'])}"`, '--probe-every');
  const outcome = await runConformance({
    flags: targetFlags(v),
    outDir: typeof v.out === 'string' ? v.out : defaultOutDir(),
    projects,
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
  });
  return outcome.exitCode;
}

function loadChoice(on: boolean, off: boolean): 'auto' | 'on' | 'off' {
  if (on && off) throw new ConfigError('--load and --skip-load exclude each other', '--load');
  return on ? 'on' : off ? 'off' : 'auto';
}

async function preflightCommand(rest: string[]): Promise<number> {
  const { values } = parse('preflight', rest, targetOptions);
  const run = parseRunConfig(process.env, targetFlags(values));
  const config = run.target;
  if (config.kind === 'embedded') {
    process.stdout.write('No target configured (CPC_BASE_URL unset): cpc conformance tests the embedded emulator, which has every key, id and capability. Ready.\n');
    return 0;
  }
  const result = await preflight(run, { listTests: async () => listedTests(await listPlaywright(run)) });
  process.stdout.write(preflightText(result) + '\n');
  return result.ready ? 0 : 2;
}

async function detectCommand(args: string[]): Promise<number> {
  const v = parse('detect', args, { faults: { type: 'string' }, 'per-fault': { type: 'string' }, out: { type: 'string' }, workers: { type: 'string' }, full: { type: 'boolean' }, variants: { type: 'string' } }).values;
  const perFault = v['per-fault'] === undefined ? undefined : Number(v['per-fault']);
  if (perFault !== undefined && !(Number.isInteger(perFault) && perFault > 0)) throw new ConfigError(`--per-fault must be a positive integer, got "${v['per-fault']}"`, '--per-fault');
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${v.workers}"`, '--workers');
  const { exitCode } = await runDetection({
    outDir: v.out ?? defaultOutDir(),
    faults: v.faults ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [],
    ...(perFault ? { perFault } : {}),
    ...(workers ? { workers } : {}),
    ...(v.full ? { full: true } : {}),
    ...(v.variants ? { variants: v.variants.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
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
