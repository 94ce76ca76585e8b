// Helpers for the CLI's own tests: run `cpc` through its installed entry (bin/cpc.js), and the
// standalone emulator as a user starts it.
import { spawn, spawnSync } from 'node:child_process';
import { after, before } from 'node:test';
import { CPC_JS, ROOT } from './reports-support.js';
import { startHidingProxy, startPrinting, startStandaloneEmulator, type Standalone } from '../run/standalone.js';
import type { PlaywrightListing } from '../run/detection/plan.js';

export { startHidingProxy, startPrinting, startStandaloneEmulator, type Standalone };

export { CPC_JS };

export interface CpcResult { code: number | null; stdout: string; stderr: string; ms: number }

/** `node bin/cpc.js ...` with only the given CPC_* variables (the others are removed). */
export function cpc(args: string[], env: Record<string, string> = {}, options: { cwd?: string; timeoutMs?: number } = {}): CpcResult {
  const started = Date.now();
  const r = spawnSync(process.execPath, [CPC_JS, ...args], { cwd: options.cwd ?? ROOT, env: envWith(env), encoding: 'utf8', timeout: options.timeoutMs ?? 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

export function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const k of Object.keys(env)) if (k.startsWith('CPC_')) delete env[k];
  return { ...env, ...extra };
}


/** The variables a user sets to point the suite at a standalone emulator's account (its keys and ids), with `base` as the base URL. */
export const TARGET_VARS = ['CPC_API_KEY', 'CPC_API_KEY_READONLY', 'CPC_API_KEY_OTHER', 'CPC_ENDPOINT_ID', 'CPC_TEMPLATE_ID', 'CPC_MODEL_ENDPOINT_ID'] as const;
export const targetEnvOf = (emulator: Standalone, base: Standalone, extra: Record<string, string> = {}): Record<string, string> => ({
  ...Object.fromEntries(TARGET_VARS.map((k) => [k, emulator.vars[k]!])), CPC_BASE_URL: base.url, ...extra,
});

/**
 * A deployment stand-in for a test file: the standalone emulator and, in front of it, the proxy
 * that hides its control surface, started before the file's tests and stopped after them;
 * `args`: the emulator's own (`--scale 10`: its clock ten times real time).
 */
export function standaloneWithProxy(args: readonly string[] = []): { emulator: Standalone; proxy: Standalone } {
  const both = {} as { emulator: Standalone; proxy: Standalone };
  before(async () => {
    both.emulator = await startStandaloneEmulator(args);
    both.proxy = await startHidingProxy(both.emulator.url);
  });
  after(async () => {
    await both.proxy?.stop();
    await both.emulator?.stop();
  });
  return both;
}


/** The suite's listings for this test file, one per shape of the run's Playwright projects. */
const listings = new Map<string, Promise<PlaywrightListing>>();

/**
 * `cpc preflight ...args` in this process (bin/commands/preflight.ts), with only the given CPC_*
 * variables as `cpc` would have them: the exit code it returns and what it prints. The suite is
 * listed once per shape of the run for the test file: each `cpc preflight` runs `playwright test
 * --list`, a Node start and a load of every spec file. The listing is the same for every key and
 * account, but not for every run: the long-wait opt-in on a target without a control surface adds
 * the long-wait lane's project (lib/lanes.ts), so a listing is kept per target kind and opt-in.
 */
export async function preflightHere(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  const [{ preflightCommand }, { listPlaywright }] = await Promise.all([import('../bin/commands/preflight.js'), import('../run/playwright.js')]);
  let stdout = '';
  const code = await preflightCommand(args, { env: envWith(env), write: (text) => { stdout += text; }, list: (run) => {
    const shape = `${run.target.kind} ${run.allowLongWaits === true}`;
    const listing = listings.get(shape) ?? listPlaywright(run);
    listings.set(shape, listing);
    return listing;
  } });
  return { code, stdout };
}

/** Pids of live processes whose environment holds `marker` (a variable every descendant inherits). */
export function processesWith(marker: string): number[] {
  const r = spawnSync('sh', ['-c', `grep -l -a -s -F ${JSON.stringify(marker)} /proc/[0-9]*/environ || true`], { encoding: 'utf8' });
  return r.stdout.split('\n').map((l) => /\/proc\/(\d+)\//.exec(l)?.[1]).filter((p): p is string => p !== undefined).map(Number).filter((p) => p !== process.pid);
}

export interface Timed { code: number | null; signal: NodeJS.Signals | null; out: string; ms: number; timedOut: boolean }

/**
 * Runs a command in a process group of its own and waits at most `limitMs`: a command still
 * running then is a hang (the group is killed and `timedOut` set). `onOutput` sees the output as it comes.
 */
export function runTimed(command: string[], env: NodeJS.ProcessEnv, limitMs: number, options: { cwd?: string; onOutput?: (all: string) => void } = {}): Promise<Timed> {
  const started = Date.now();
  const child = spawn(command[0]!, command.slice(1), { cwd: options.cwd ?? ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const seen = (d: Buffer) => { out += d.toString(); options.onOutput?.(out); };
  child.stdout!.on('data', seen);
  child.stderr!.on('data', seen);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
  }, limitMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, ms: Date.now() - started, timedOut });
    });
  });
}

/** Waits up to `ms` for no process to carry `marker`; returns the pids still there. */
export async function leftAfter(marker: string, ms = 3_000): Promise<number[]> {
  const end = Date.now() + ms;
  let left = processesWith(marker);
  while (left.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesWith(marker);
  }
  for (const pid of left) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  return left;
}
