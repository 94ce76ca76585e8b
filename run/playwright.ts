import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { runConfigEnv } from '../lib/run-config.js';
import { type RunConfig } from '../lib/protocol.js';
import { InternalError } from '../lib/errors.js';
import type { PlaywrightListing } from './detection/plan.js';
import { PROJECT_ROOT, playwrightEnv } from './paths.js';
import { exitOf } from './child.js';

/**
 * The one way the command line starts Playwright: `playwright test ...args` from the project
 * root, with the run's configuration as its one variable (lib/run-config.ts). The user's own
 * `CPC_*` variables are not passed on: the run configuration already holds what they said, so
 * no worker can read a second, different answer.
 */
export function spawnPlaywright(args: readonly string[], config: RunConfig, options: { stdio: StdioOptions; detached?: boolean; env?: Record<string, string> }): ChildProcess {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const env = playwrightChildEnv(process.env, config, { FORCE_COLOR: process.stdout.isTTY && options.stdio !== 'pipe' ? '1' : '0', ...options.env });
  return spawn(process.execPath, [cli, 'test', ...args], { cwd: PROJECT_ROOT, env, stdio: options.stdio, ...(options.detached ? { detached: true } : {}) });
}

/**
 * Playwright's environment: the parent's without its `CPC_*` variables, plus the run
 * configuration and `extra`. Against the embedded emulator every request is plain HTTP on
 * loopback, so the runner and its workers start without `NODE_EXTRA_CA_CERTS` (run/paths.ts).
 */
export function playwrightChildEnv(parent: NodeJS.ProcessEnv, config: RunConfig, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(parent).filter(([name]) => !name.startsWith('CPC_')));
  return playwrightEnv({ ...inherited, ...runConfigEnv(config), ...extra }, { loopbackOnly: config.target.kind === 'embedded' || (config.target.kind === 'pending' && config.target.setting.kind === 'embedded') });
}

/** `playwright test --list --reporter=json`: every test the configuration (and `select`: --grep, --shard) selects, not run. */
export async function listPlaywright(config: RunConfig, select: readonly string[] = []): Promise<PlaywrightListing> {
  const child = spawnPlaywright(['--list', '--reporter=json', ...select], config, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (b: Buffer) => out.push(b));
  child.stderr!.on('data', (b: Buffer) => err.push(b));
  const code = await exitOf(child);
  const stdout = Buffer.concat(out).toString('utf8');
  if (code !== 0 && !stdout) throw new InternalError(`playwright --list failed: ${Buffer.concat(err).toString('utf8').slice(0, 2000)}`);
  try {
    return JSON.parse(stdout) as PlaywrightListing;
  } catch (e) {
    throw new InternalError(`playwright --list gave no JSON: ${(e as Error).message}`, { cause: e });
  }
}
