/**
 * Worker parity: the serverless contract suite (or a slice, `grep`) against one standalone
 * emulator seen as a deployment (the control surface hidden by the proxy), twice at once, in two
 * worlds of it: the world it starts with, whose endpoint is served by `worker/handler.py` on the
 * official worker library as outside worker processes (`--outside-workers`), and a world made
 * like that one through its control surface but run by the built-in conformance handler. Both
 * must give the same MUST verdicts, none failed. Nothing here judges a rule: the suite does,
 * twice, and this compares.
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
  /** Outside worker processes (the seeded endpoint's workersMax is 3, as the built-in world's). */
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

/** The user's target variables for one world behind the proxy `base` (the other CPC_* removed). */
function targetEnv(world: Record<string, string>, base: Standalone): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const k of Object.keys(env)) if (k.startsWith('CPC_')) delete env[k];
  for (const k of TARGET_VARS) if (world[k] !== undefined) env[k] = world[k];
  env.CPC_BASE_URL = base.url;
  return env;
}

const TARGET_VARS = ['CPC_API_KEY', 'CPC_API_KEY_READONLY', 'CPC_API_KEY_OTHER', 'CPC_ENDPOINT_ID', 'CPC_TEMPLATE_ID', 'CPC_MODEL_ENDPOINT_ID'];

interface WorldAnswer { keys: { main: string; readonly: string; other: string }; seeded: Record<string, unknown> }

/**
 * The built-in side's world: made through the emulator's control surface with the settings of
 * the world the emulator started with (its clock, quotas, faults and variants), whose jobs the
 * built-in handler runs; its keys and seeded ids as the standalone prints its own.
 */
async function builtInWorld(emulator: Standalone): Promise<Record<string, string>> {
  const control = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${emulator.url}/__emulator${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`the emulator's control surface answered ${res.status} to ${path}: ${await res.text()}`);
    return await res.json() as T;
  };
  const { defaultWorld } = await control<{ defaultWorld: string }>('');
  const started = await control<{ clock: unknown; quotas: unknown; faults: string[]; variants: string[]; chaos?: unknown }>(`/worlds/${defaultWorld}`);
  // Chaos draws from the world's seed: the two worlds would meet different chaos, and differ for it.
  if (started.chaos) throw new Error('worker parity compares the handlers without chaos (CPC_EMULATOR_CHAOS is set)');
  const made = await control<WorldAnswer>('/worlds', { clock: started.clock, quotas: started.quotas, faults: started.faults, variants: started.variants });
  return { CPC_API_KEY: made.keys.main, CPC_API_KEY_READONLY: made.keys.readonly, CPC_API_KEY_OTHER: made.keys.other,
    ...Object.fromEntries(Object.entries(made.seeded).map(([k, v]) => [k, String(v)])) };
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

async function side(name: SideResult['side'], world: Record<string, string>, proxy: Standalone, options: ParityOptions): Promise<SideResult> {
  const outDir = join(options.outDir, name);
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  const code = await runSuite(targetEnv(world, proxy), options, outDir);
  return { side: name, wallMs: Date.now() - started, code, must: mustVerdicts(join(outDir, 'conformance.json')), outDir };
}

/** Runs both sides at once (each waits mostly on real time) and compares their MUST verdicts. */
export async function runParity(options: ParityOptions): Promise<ParityResult> {
  const emulator = await startPrinting(['emulator/main.ts', '--port', '0', '--outside-workers']);
  const workers: ChildProcess[] = [];
  let proxy: Standalone | undefined;
  try {
    proxy = await startPrinting(['scripts/hide-control-proxy.ts', '--upstream', emulator.url]);
    const builtInVars = await builtInWorld(emulator);
    mkdirSync(join(options.outDir, 'outside'), { recursive: true });
    for (let i = 1; i <= options.workers; i++) workers.push(startWorker(options, emulator, i, join(options.outDir, 'outside')));
    const [builtIn, outside] = await Promise.all([side('built-in', builtInVars, proxy, options), side('outside', emulator.vars, proxy, options)]);
    const failed = [...new Set([builtIn, outside].flatMap((s) => Object.entries(s.must).filter(([, v]) => v === 'fail').map(([id]) => `${s.side}: ${id}`)))];
    return { builtIn, outside, differences: compareVerdicts(builtIn.must, outside.must), failed };
  } finally {
    await Promise.all(workers.map(stopGroup));
    await proxy?.stop();
    await emulator.stop();
  }
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
