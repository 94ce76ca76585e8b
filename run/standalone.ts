/**
 * The standalone emulator and the proxy that hides its control surface, started as a user
 * starts them: a deployment stand-in (the CLI's tests, the pooled detection matrix).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A started process: its URL, the `CPC_*` variables it printed, and how to stop it. */
export interface Standalone { child: ChildProcess; url: string; vars: Record<string, string>; stop: () => Promise<void> }

/** A standalone process that prints `CPC_NAME=value` lines (the emulator, the control-hiding proxy). */
export function startPrinting(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Standalone> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${args[0]} did not start: ${out}`)); }, 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const vars = Object.fromEntries([...out.matchAll(/(CPC_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
      if (!vars.CPC_BASE_URL || (args[0]!.includes('emulator') && !out.includes('control surface'))) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const stop = () => new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) { done(); return; }
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      });
      resolve({ child, url: vars.CPC_BASE_URL, vars, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${args[0]} exited with ${code}: ${out}`)); });
  });
}

/** The standalone emulator (`npm run emulator -- --port 0 ...`): its URL, keys and seeded ids. */
export const startStandaloneEmulator = (args: readonly string[] = []): Promise<Standalone> => startPrinting(['emulator/main.ts', '--port', '0', ...args]);

/** scripts/hide-control-proxy.ts in front of `upstream`: the emulator without its control surface. */
export const startHidingProxy = (upstream: string): Promise<Standalone> => startPrinting(['scripts/hide-control-proxy.ts', '--upstream', upstream]);
