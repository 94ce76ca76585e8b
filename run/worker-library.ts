/**
 * The platform's official Python worker library (`runpod` 1.12.0), for the tests that run
 * `worker/handler.py` on it: the offline copy in `../shared/tools/runpod-python` beside the
 * project (or the folder `CPC_RUNPOD_PYTHON` names), installed once by its `install.sh` into a
 * virtual environment under `.cache/`; or the interpreter `RUNPOD_PYTHON` names, which has it. Tests skip with the returned reason when it is absent.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './paths.js';

export type WorkerLibrary = { found: true; python: string; source: string } | { found: false; reason: string };

/** `worker/handler.py`, the conformance handler on the library. */
export const WORKER_HANDLER = join(PROJECT_ROOT, 'worker', 'handler.py');

/**
 * Environment a worker process needs beside the platform's variables: the library's own switches
 * that skip its start-up fitness checks (one of them connects to a public address; a test runs on
 * loopback only, without GPU).
 */
export const TEST_WORKER_ENV = { RUNPOD_SKIP_AUTO_SYSTEM_CHECKS: 'true', RUNPOD_SKIP_GPU_CHECK: 'true' } as const;

const imports = (python: string): boolean =>
  spawnSync(python, ['-c', 'import runpod.serverless'], { encoding: 'utf8', timeout: 60_000 }).status === 0;

/** The interpreter a virtual environment's `python` links to, and when it last changed: what a stamp is valid for. */
const interpreterOf = (python: string): string => {
  const real = realpathSync(python);
  return JSON.stringify({ interpreter: real, changed: statSync(real).mtimeMs });
};

/**
 * Whether the environment's python imports the library: asked once (a Python start and the
 * library's import, most of a second of CPU), then remembered in a stamp inside the
 * environment, valid while its interpreter is the same file. Every worker test asks; the
 * environment is this module's own, so nothing else changes what it imports.
 */
function venvImports(venv: string, python: string): boolean {
  const stamp = join(venv, '.imports-runpod-serverless');
  try {
    if (readFileSync(stamp, 'utf8') === interpreterOf(python)) return true;
  } catch { /* no stamp yet, or no interpreter: ask */ }
  if (!existsSync(python) || !imports(python)) return false;
  writeFileSync(stamp, interpreterOf(python));
  return true;
}

/** How long a process waits for another's install of the environment before making its own. */
const INSTALL_WAIT_MS = 300_000;

/** Sleeps `ms` without returning to the event loop (findWorkerLibrary is synchronous, as the tests' `skip` options need). */
const pause = (ms: number): void => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); };

/**
 * Runs `make` while holding the lock folder `lock` (mkdir is atomic): one process installs while
 * the others wait for it instead of each installing the same environment (the worker tests start
 * at once, and an install is about 8 CPU-s). A lock older than the wait is taken as left by a
 * process that died, and removed.
 */
export function underLock(lock: string, ready: () => boolean, make: () => void): void {
  const end = Date.now() + INSTALL_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      // Only a lock another process holds is waited for; any other failure (no permission) is the caller's.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (ready()) return;
      let age: number;
      try { age = Date.now() - statSync(lock).mtimeMs; } catch { continue; }
      if (age > INSTALL_WAIT_MS || Date.now() > end) { rmSync(lock, { recursive: true, force: true }); continue; }
      pause(250);
    }
  }
  try {
    if (!ready()) make();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Finds the library and makes its virtual environment on first use (about 8 CPU-s, no network),
 * one process at a time (the others wait for it), into a temporary folder renamed into place, so
 * a test never sees half of one.
 */
export function findWorkerLibrary(env: NodeJS.ProcessEnv = process.env): WorkerLibrary {
  // CI installs the release from the registry (`pip install runpod==1.12.0`) and names its interpreter.
  const named = env.RUNPOD_PYTHON?.trim();
  if (named) return imports(named) ? { found: true, python: named, source: 'RUNPOD_PYTHON' } : { found: false, reason: `RUNPOD_PYTHON=${named} does not import runpod.serverless` };
  const source = resolve(env.CPC_RUNPOD_PYTHON?.trim() || join(PROJECT_ROOT, '..', 'shared', 'tools', 'runpod-python'));
  const install = join(source, 'install.sh');
  if (!existsSync(install)) {
    return { found: false, reason: `the official worker library is not there: no ${install} (set CPC_RUNPOD_PYTHON to the runpod-python folder)` };
  }
  const cache = join(PROJECT_ROOT, '.cache');
  const venv = join(cache, `runpod-venv-${createHash('sha256').update(source).digest('hex').slice(0, 8)}`);
  const python = join(venv, 'bin', 'python');
  if (venvImports(venv, python)) return { found: true, python, source };
  mkdirSync(cache, { recursive: true });
  let failed: string | undefined;
  underLock(`${venv}.lock`, () => existsSync(python), () => {
    const temporary = `${venv}.tmp-${process.pid}`;
    rmSync(temporary, { recursive: true, force: true });
    const made = spawnSync('bash', [install, temporary], { encoding: 'utf8', timeout: 300_000 });
    if (made.status !== 0) {
      rmSync(temporary, { recursive: true, force: true });
      failed = `${install} failed (${made.error?.message ?? `exit ${made.status}`}): ${(made.stderr || made.stdout).trim().slice(-300)}`;
      return;
    }
    try {
      renameSync(temporary, venv);
    } catch {
      // An environment is there already (made without the lock by an older copy): use that one.
      rmSync(temporary, { recursive: true, force: true });
    }
  });
  if (failed) return { found: false, reason: failed };
  return venvImports(venv, python) ? { found: true, python, source } : { found: false, reason: `the library's environment ${venv} does not import runpod.serverless` };
}
