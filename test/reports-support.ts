// Helpers for the report's own tests: temporary folders, running the CLI, walking output.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The installed `cpc` entry: one Node process that registers tsx itself. `npx tsx bin/cpc.ts`
 * would start two (tsx's launcher and the Node it runs), a second start for every command a test runs.
 */
export const CPC_JS = join(ROOT, 'bin', 'cpc.js');

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `cpc-${prefix}-`));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Files under `dir` whose text contains `needle`. */
export const filesContaining = (dir: string, needle: string): string[] => filesUnder(dir).filter((f) => readFileSync(f, 'utf8').includes(needle));

/** The CLI without the conformance run (report, diff): synchronous, with its exit code and output. */
export function cpcSync(args: string[], env: Record<string, string> = {}): { code: number; out: string } {
  const r = spawnSync(process.execPath, [CPC_JS, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** Environment for a child run with no target configured (the embedded emulator). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of Object.keys(env)) if (k.startsWith('CPC_') && !(k in extra)) delete env[k];
  return env;
}

/**
 * Starts `cpc` in a process group of its own, as a terminal does, so a test can interrupt it
 * the way Ctrl-C does (`interrupt()` signals the whole group).
 */
export function cpcAsync(args: string[], env: NodeJS.ProcessEnv, command: string[] = [process.execPath, CPC_JS]): {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
  interrupt: (signal?: NodeJS.Signals) => void;
  output: () => string;
  /** Stops the whole group if it is still running (cleanup after a failed test). */
  kill: () => void;
} {
  const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, out }));
  });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const kill = () => {
    if (exited) return;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch { /* already gone */ }
  };
  return { done, interrupt: (signal = 'SIGINT') => process.kill(-child.pid!, signal), output: () => out, kill };
}

/** Resolves once `check` holds (polling), or rejects after `timeoutMs` with what the child printed. */
export async function until(check: () => boolean, timeoutMs: number, what: string, output: () => string = () => ''): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; output so far:\n${output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
