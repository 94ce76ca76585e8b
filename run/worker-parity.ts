/**
 * Worker parity: the serverless contract suite (or a slice, `grep`) against two standalone
 * emulators seen as deployments (the control surface hidden by the proxy): one running the
 * built-in conformance handler, one whose endpoint is served by `worker/handler.py` on the
 * official worker library, as outside worker processes. Both must give the same MUST verdicts,
 * none failed. Nothing here judges a rule: the suite does, twice, and this compares.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './paths.js';
import { startPrinting, type Standalone } from './standalone.js';
import { TEST_WORKER_ENV } from './worker-library.js';

export interface ParityOptions {
  /** The suite's `--grep` (default: every serverless spec file). */
  grep: string;
  /** Where each side's report and the workers' logs go. */
  outDir: string;
  /** A Python that imports runpod (run/worker-library.ts). */
  python: string;
  /** The worker's entry (default worker/handler.py). */
  handler: string;
  /** Outside worker processes (the seeded endpoint's workersMax is 3, as the built-in side's). */
  workers: number;
  /** Extra `cpc conformance` options (for example `--workers 2`). */
  extraArgs?: readonly string[];
}

export type Verdicts = Record<string, string>;

export interface SideResult { side: 'built-in' | 'outside'; wallMs: number; code: number | null; must: Verdicts; outDir: string }

export interface ParityResult { builtIn: SideResult; outside: SideResult; differences: string[]; failed: string[] }

export const DEFAULT_GREP = 'specs/serverless/';

/** The MUST verdicts of a report (`conformance.json`), rule by rule, for the rules the run decided or skipped. */
export function mustVerdicts(reportFile: string): Verdicts {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { rules: { id: string; level: string; verdict: string }[] };
  return Object.fromEntries(report.rules.filter((r) => r.level === 'MUST' && r.verdict !== 'untested').map((r) => [r.id, r.verdict]));
}

/** Rules whose verdict differs between the two sides, one line each. */
export function compareVerdicts(a: Verdicts, b: Verdicts): string[] {
  const ids = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return ids.filter((id) => a[id] !== b[id]).map((id) => `${id}: built-in ${a[id] ?? 'untested'}, outside ${b[id] ?? 'untested'}`);
}

/** The user's target variables for a standalone emulator behind `base` (the other CPC_* removed). */
function targetEnv(emulator: Standalone, base: Standalone): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const k of Object.keys(env)) if (k.startsWith('CPC_')) delete env[k];
  for (const k of ['CPC_API_KEY', 'CPC_API_KEY_READONLY', 'CPC_API_KEY_OTHER', 'CPC_ENDPOINT_ID', 'CPC_TEMPLATE_ID', 'CPC_MODEL_ENDPOINT_ID']) env[k] = emulator.vars[k];
  env.CPC_BASE_URL = base.url;
  return env;
}

/** One worker process on the library, in a process group of its own (its heartbeat is a child process). */
function startWorker(options: ParityOptions, emulator: Standalone, index: number, logDir: string): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, ...TEST_WORKER_ENV };
  for (const [k, v] of Object.entries(emulator.vars)) if (k.startsWith('RUNPOD_')) env[k] = v;
  env.RUNPOD_POD_ID = `parity-worker-${index}`;
  const log = openSync(join(logDir, `worker-${index}.log`), 'w');
  return spawn(options.python, [resolve(PROJECT_ROOT, options.handler)], { cwd: PROJECT_ROOT, env, detached: true, stdio: ['ignore', log, log] });
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) { done(); return; }
    child.once('exit', () => done());
    try { process.kill(-child.pid!, 'SIGTERM'); } catch { done(); return; }
    setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 5_000).unref();
  });
}

function runSuite(env: NodeJS.ProcessEnv, options: ParityOptions, outDir: string): Promise<number | null> {
  const args = [join(PROJECT_ROOT, 'bin', 'cpc.js'), 'conformance', '--skip-load', '--project', 'contract', '--grep', options.grep,
    '--out', outDir, '--artifacts', join(outDir, 'artifacts'), '--quiet-summary', ...(options.extraArgs ?? [])];
  const log = openSync(join(outDir, 'run.log'), 'w');
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', log, log] });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function side(name: SideResult['side'], options: ParityOptions): Promise<SideResult> {
  const outDir = join(options.outDir, name);
  mkdirSync(outDir, { recursive: true });
  const emulator = await startPrinting(['emulator/main.ts', '--port', '0', ...(name === 'outside' ? ['--outside-workers'] : [])]);
  const workers: ChildProcess[] = [];
  let proxy: Standalone | undefined;
  try {
    proxy = await startPrinting(['scripts/hide-control-proxy.ts', '--upstream', emulator.url]);
    if (name === 'outside') for (let i = 1; i <= options.workers; i++) workers.push(startWorker(options, emulator, i, outDir));
    const started = Date.now();
    const code = await runSuite(targetEnv(emulator, proxy), options, outDir);
    const wallMs = Date.now() - started;
    return { side: name, wallMs, code, must: mustVerdicts(join(outDir, 'conformance.json')), outDir };
  } finally {
    await Promise.all(workers.map(stopGroup));
    await proxy?.stop();
    await emulator.stop();
  }
}

/** Runs both sides at once (each waits mostly on real time) and compares their MUST verdicts. */
export async function runParity(options: ParityOptions): Promise<ParityResult> {
  const [builtIn, outside] = await Promise.all([side('built-in', options), side('outside', options)]);
  const failed = [...new Set([builtIn, outside].flatMap((s) => Object.entries(s.must).filter(([, v]) => v === 'fail').map(([id]) => `${s.side}: ${id}`)))];
  return { builtIn, outside, differences: compareVerdicts(builtIn.must, outside.must), failed };
}

/** The figures of a parity run, for its output and the nightly log. */
export function describeParity(r: ParityResult): string {
  const count = (s: SideResult, v: string): number => Object.values(s.must).filter((x) => x === v).length;
  const line = (s: SideResult): string => `  ${s.side.padEnd(9)} ${count(s, 'pass')} pass, ${count(s, 'fail')} fail, ${count(s, 'blocked')} blocked, ${count(s, 'skip')} skipped MUST rules; ${(s.wallMs / 1000).toFixed(1)} s; report ${s.outDir}`;
  return [
    `Worker parity: ${r.differences.length === 0 && r.failed.length === 0 ? 'the same MUST verdicts, none failed' : 'DIFFERENT'}`,
    line(r.builtIn), line(r.outside),
    ...r.differences.map((d) => `  differs: ${d}`),
    ...r.failed.map((f) => `  failed: ${f}`),
  ].join('\n');
}
