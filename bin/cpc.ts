#!/usr/bin/env -S npx tsx
/**
 * cpc: the Compute Platform conformance suite's command line.
 *
 *   cpc conformance [--base-url URL ...] [--out DIR] [--project contract|property] [--grep RE] [--faults id,id]
 *                   [--baseline FILE [--update-baseline]] [--load-dir DIR]
 *   cpc report [--from FILE] [--out DIR] [--baseline FILE]     re-render a saved report
 *   cpc diff A.json B.json [--out DIR]                         rules whose verdict or observation differs
 *
 * Exit codes: 0 conformant (with --baseline: no change), 1 a MUST rule failed, a test failed or
 * the baseline changed (diff: the reports differ), 2 configuration error, 130 interrupted. Errors print one line, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { CpcError, ConfigError } from '../lib/errors.js';
import { ENV_VARS, flagOf, type ConfigKey } from '../lib/config.js';
import { runConformance } from './commands/conformance.js';
import { reportCommand } from './commands/report.js';
import { diffCommand } from './commands/diff.js';
import { runDetection } from './commands/detect.js';
import { PROJECT_ROOT } from './paths.js';

const USAGE = `usage: cpc <command> [options]

commands:
  conformance   run the suite against the target and write reports (default target: embedded emulator)
  report        re-render every report format from a saved JSON report (cpc report --help)
  diff          compare two saved reports rule by rule (cpc diff --help)
  detect        the detection matrix: every emulator fault must fail the rule it breaks

target options (or the environment variables in brackets):
${(Object.keys(ENV_VARS) as ConfigKey[]).map((k) => `  --${flagOf(k).padEnd(18)} [${ENV_VARS[k]}]`).join('\n')}

run options:
  --out DIR            report folder (default reports/out)
  --project NAME       contract or property (repeatable; default both)
  --grep RE            only tests whose title or rule tag matches
  --workers N          parallel workers (default 2)
  --faults id,id       switch emulator faults on (embedded emulator only)
  --quiet-summary      dots instead of one line per test
  --baseline FILE      expectations file of known differences: any change exits 1
  --update-baseline    rewrite the baseline file from this run, on purpose
  --load-dir DIR       load summaries to merge (default <out>/load)
  --probe-every MS     watchdog interval for a remote target (default 15000)
  --artifacts DIR      Playwright's output folder (default test-results)
  --load / --skip-load run the load scenarios after the suites (default: with the embedded emulator only)

detect options:
  --faults id,id       only these faults (default: the whole catalog)
  --per-fault N        tests run per fault (default 6)
  --full               the whole suite once per fault (nightly): the MUST rules each fault fails,
                       its own among them and at most 3 (reports/out/detection-full.json)

CPC_SEED replays a run; without it a seed is chosen, printed and recorded in the report.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'report') return rest[0] === 'diff' ? diffCommand(rest.slice(1)) : reportCommand(rest);
  if (command === 'diff') return diffCommand(rest);
  if (command === 'detect') return detectCommand(rest);
  if (command !== 'conformance') throw new ConfigError(`unknown command "${command}"`);
  const targetOptions = Object.fromEntries((Object.keys(ENV_VARS) as ConfigKey[]).map((k) => [flagOf(k), { type: 'string' as const }]));
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        ...targetOptions,
        out: { type: 'string' }, project: { type: 'string', multiple: true }, grep: { type: 'string' },
        workers: { type: 'string' }, faults: { type: 'string' }, 'quiet-summary': { type: 'boolean' },
        baseline: { type: 'string' }, 'update-baseline': { type: 'boolean' }, 'load-dir': { type: 'string' }, 'probe-every': { type: 'string' }, artifacts: { type: 'string' },
        load: { type: 'boolean' }, 'skip-load': { type: 'boolean' },
      },
      strict: true,
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const flags: Partial<Record<ConfigKey, string>> = {};
  for (const k of Object.keys(ENV_VARS) as ConfigKey[]) {
    const value = v[flagOf(k)];
    if (typeof value === 'string') flags[k] = value;
  }
  const projects = (v.project as string[] | undefined) ?? ['contract', 'property'];
  for (const p of projects) if (p !== 'contract' && p !== 'property') throw new ConfigError(`--project is contract or property, got "${p}"`);
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(v.workers)}"`);
  const probeEvery = v['probe-every'] === undefined ? undefined : Number(v['probe-every']);
  if (probeEvery !== undefined && !(Number.isInteger(probeEvery) && probeEvery >= 100)) throw new ConfigError(`--probe-every must be an integer of at least 100 (ms), got "${String(v['probe-every'])}"`);
  const outcome = await runConformance({
    flags,
    outDir: typeof v.out === 'string' ? v.out : join(PROJECT_ROOT, 'reports', 'out'),
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
  });
  return outcome.exitCode;
}

function loadChoice(on: boolean, off: boolean): 'auto' | 'on' | 'off' {
  if (on && off) throw new ConfigError('--load and --skip-load exclude each other');
  return on ? 'on' : off ? 'off' : 'auto';
}

async function detectCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { faults: { type: 'string' }, 'per-fault': { type: 'string' }, out: { type: 'string' }, workers: { type: 'string' }, full: { type: 'boolean' } }, strict: true });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  const perFault = v['per-fault'] === undefined ? undefined : Number(v['per-fault']);
  if (perFault !== undefined && !(Number.isInteger(perFault) && perFault > 0)) throw new ConfigError(`--per-fault must be a positive integer, got "${v['per-fault']}"`);
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${v.workers}"`);
  const { exitCode } = await runDetection({
    outDir: v.out ?? join(PROJECT_ROOT, 'reports', 'out'),
    faults: v.faults ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [],
    ...(perFault ? { perFault } : {}),
    ...(workers ? { workers } : {}),
    ...(v.full ? { full: true } : {}),
  });
  return exitCode;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`cpc: configuration error: ${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof CpcError) {
      process.stderr.write(`cpc: ${error.code}: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`cpc: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
