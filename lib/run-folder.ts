/**
 * The run's own temporary folder (`<system temp>/cpc-run-<run id>/`): its records (what it
 * creates on a deployment, its waits for the rate limit, its request count and pod
 * reservations), the resolved target of a plain Playwright run and the catalog preflight read.
 * The run removes the folder as it ends, unless the record of what it created still lists
 * something not deleted: then the record alone stays there, beside `leftovers.json`.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from './cleanup/registry.js';
import type { RunConfig } from './protocol.js';

/** The folder of run `runId` under the system's temporary folder. */
export const runFolderOf = (runId: string): string => join(tmpdir(), `cpc-run-${runId}`);

/** The run's files in its folder (named in the run configuration, lib/run-config.ts). */
export function runFiles(runId: string): Required<Pick<RunConfig, 'cleanupFile' | 'pacingFile' | 'provisionFile' | 'budgetFiles'>> & { target: string } {
  const folder = runFolderOf(runId);
  return {
    target: join(folder, 'target.json'),
    cleanupFile: join(folder, 'created.jsonl'),
    pacingFile: join(folder, 'pacing.jsonl'),
    provisionFile: join(folder, 'provisioned.json'),
    budgetFiles: { requests: join(folder, 'requests.count'), pods: join(folder, 'pods.jsonl') },
  };
}

/** Makes the run's folder (only its owner reads it: the files may name a deployment's resources). */
export function openRunFolder(config: Pick<RunConfig, 'runId'>): string | undefined {
  if (!config.runId) return undefined;
  const folder = runFolderOf(config.runId);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/**
 * Removes the run's folder, unless its record lists a creation not deleted (a teardown that
 * could not delete it): then only the record stays (the other files, the resolved target's
 * keys among them, go), and its path is returned.
 */
export function closeRunFolder(config: Pick<RunConfig, 'runId' | 'cleanupFile'>): { kept?: string } {
  if (!config.runId) return {};
  const folder = runFolderOf(config.runId);
  const record = config.cleanupFile;
  if (record && new Registry(record).outstanding().open.length > 0) {
    for (const f of readdirSync(folder)) if (join(folder, f) !== record) rmSync(join(folder, f), { recursive: true, force: true });
    return { kept: record };
  }
  rmSync(folder, { recursive: true, force: true });
  return {};
}
