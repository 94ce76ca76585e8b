/**
 * A standalone process of the project that prints `NAME=value` lines when it is ready: the
 * emulator (`emulator/main.ts`, its `CPC_*` and, with `--outside-workers`, `RUNPOD_*` lines) or
 * the control-hiding proxy. The CLI's tests, the pooled detection matrix and the worker parity
 * run start them as users do: a deployment stand-in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from './paths.js';

/** A started process: its URL, the variables it printed, and how to stop it. */
export interface Standalone { child: ChildProcess; url: string; vars: Record<string, string>; stop: () => Promise<void> }

/** Starts `node --import tsx <args>` in the project and resolves once it has printed its variables. */
export function startPrinting(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Standalone> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${args[0]} did not start: ${out}`)); }, 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const vars = Object.fromEntries([...out.matchAll(/((?:CPC|RUNPOD)_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
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
