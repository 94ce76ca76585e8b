import { spawn, execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { PROJECT_ROOT, playwrightEnv } from '../paths.js';

export interface PlaywrightRun {
  /** Exit code, or 130 when a signal ended it. */
  code: number;
  /** Set when SIGINT/SIGTERM reached this process during the run (and was forwarded). */
  interruptedBy?: NodeJS.Signals;
}

/**
 * Runs `playwright test` with the given arguments and environment, forwarding SIGINT and
 * SIGTERM so the raw reporter can close its file, and resolving when Playwright exits.
 */
export function runPlaywright(args: readonly string[], env: Record<string, string>): Promise<PlaywrightRun> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  return new Promise((resolve) => {
    let interruptedBy: NodeJS.Signals | undefined;
    const child = spawn(process.execPath, [cli, 'test', ...args], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: playwrightEnv({ ...env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' }),
    });
    const onSignal = (signal: NodeJS.Signals) => { interruptedBy = signal; child.kill(signal); };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve({ code: code ?? (signal ? 130 : 1), ...(interruptedBy ? { interruptedBy } : {}) });
    });
  });
}

/** `playwright test --list --reporter=json`: every test the configuration selects, not run. */
export function listPlaywright(env: Record<string, string>): Promise<{ suites: [] }> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, 'test', '--list', '--reporter=json'], { cwd: PROJECT_ROOT, env: playwrightEnv(env), maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && !stdout) { reject(new Error(`playwright --list failed: ${stderr.slice(0, 2000)}`)); return; }
        try { resolve(JSON.parse(stdout) as { suites: [] }); } catch (e) { reject(new Error(`playwright --list gave no JSON: ${(e as Error).message}`)); }
      });
  });
}
