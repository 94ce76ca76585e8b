/**
 * Where the platform's official Python library (runpod 1.12.0) is: the worker parity run and the
 * tests of the Python client need it; without it they skip with the returned reason, as the k6
 * tests do without k6.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PROJECT_ROOT as ROOT } from './paths.js';

/** The library's offline copy beside the project (its README: `install.sh <venv>`). */
export const RUNPOD_PYTHON_DIR = resolve(ROOT, '..', 'shared', 'tools', 'runpod-python');
/** Where the tests install it from that copy: gitignored, made once. */
const VENV = join(ROOT, '.cache', 'runpod-venv');

export type RunpodPython = { found: true; python: string } | { found: false; reason: string };

const imports = (python: string): boolean =>
  spawnSync(python, ['-c', 'import runpod.serverless, runpod.endpoint'], { encoding: 'utf8', timeout: 60_000 }).status === 0;

let cached: RunpodPython | undefined;

/**
 * A Python interpreter that imports `runpod`: `RUNPOD_PYTHON` (CI installs `runpod==1.12.0`
 * from the registry and names its interpreter), else the project's `.cache/runpod-venv`, made
 * from `../shared/tools/runpod-python` with its `install.sh` when that folder is there.
 */
export function findRunpodPython(env: NodeJS.ProcessEnv = process.env): RunpodPython {
  if (cached) return cached;
  const named = env.RUNPOD_PYTHON?.trim();
  if (named) {
    cached = imports(named) ? { found: true, python: named } : { found: false, reason: `RUNPOD_PYTHON=${named} does not import runpod` };
    return cached;
  }
  const python = join(VENV, 'bin', 'python');
  if (!existsSync(python)) {
    const install = join(RUNPOD_PYTHON_DIR, 'install.sh');
    if (!existsSync(install)) {
      cached = { found: false, reason: `the official worker library is absent: no ${RUNPOD_PYTHON_DIR} and no RUNPOD_PYTHON (a python with runpod==1.12.0)` };
      return cached;
    }
    mkdirSync(dirname(VENV), { recursive: true });
    // Made aside and renamed into place: test processes that start at once never share a half-made one.
    const aside = `${VENV}.${process.pid}`;
    const made = spawnSync(install, [aside], { encoding: 'utf8', timeout: 300_000 });
    if (made.status !== 0) {
      rmSync(aside, { recursive: true, force: true });
      cached = { found: false, reason: `${install} failed: ${(made.stderr || made.stdout).slice(-300)}` };
      return cached;
    }
    try { renameSync(aside, VENV); } catch { rmSync(aside, { recursive: true, force: true }); }
  }
  cached = imports(python) ? { found: true, python } : { found: false, reason: `${python} does not import runpod` };
  return cached;
}
