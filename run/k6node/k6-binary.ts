/**
 * Where the real k6 binary is: the `K6` environment variable (a path), else `k6` on PATH. Tests
 * that compare with real k6 skip with the returned reason when there is none.
 */
import { spawnSync } from 'node:child_process';

export type K6Binary = { found: true; path: string; version: string } | { found: false; reason: string };

/** Looks for k6 once per call (`k6 version` answers within 10 s or the binary does not count). */
export function findK6(env: NodeJS.ProcessEnv = process.env): K6Binary {
  const path = env.K6?.trim() || 'k6';
  const r = spawnSync(path, ['version'], { encoding: 'utf8', timeout: 10_000, env });
  if (r.status !== 0) {
    return { found: false, reason: env.K6?.trim() ? `K6=${path} does not run (${r.error?.message ?? `exit ${r.status}`})` : 'no k6 binary: set K6 to its path or put k6 on PATH' };
  }
  const version = /k6 (v[\d.]+)/.exec(r.stdout)?.[1] ?? r.stdout.trim().split('\n')[0] ?? 'unknown';
  return { found: true, path, version };
}
