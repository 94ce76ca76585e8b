/** What a run could not delete: its strays found by name, and the leftovers file and lines. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiClient, KeyRole } from '../client/api.js';
import { runConfig } from '../run-config.js';
import type { Leftover, LeftoversFile, Resource } from '../protocol.js';
import { heldByRun } from './account.js';
import { STRAY } from './names.js';
import type { Registry } from './registry.js';

/**
 * Pods, network volumes and endpoints listed on the target with this run's names that the
 * record does not hold: a create whose answer was lost (the connection broke) may still have
 * made one. A list that fails finds nothing.
 */
export async function strays(api: ApiClient, runId: string, registry: Registry, roles: readonly KeyRole[] = ['main']): Promise<Resource[]> {
  const seen = recordedIds(registry);
  return (await heldByRun(api, runId, roles)).filter((r) => !seen.has(r.id!)).map((r) => ({ ...r, test: STRAY }));
}

/** The ids of the pods, network volumes and endpoints the run's record holds (what listing finds). */
export const recordedIds = (registry: Registry): Set<string> =>
  new Set([...registry.knownIds('pod', ''), ...registry.knownIds('networkVolume', ''), ...registry.knownIds('endpoint', '')]);

/** Where the run writes `leftovers.json`: beside the raw results (`reports/out`). */
export function leftoversPath(projectRoot: string): string {
  const rawDir = runConfig().rawDir;
  return rawDir ? join(dirname(rawDir), 'leftovers.json') : join(projectRoot, 'reports', 'out', 'leftovers.json');
}

export function writeLeftovers(file: string, content: LeftoversFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(content, null, 2) + '\n');
}

/** Console lines for what is left (never a key: resources carry ids and names only). */
export function describeLeftovers(leftovers: Leftover[]): string {
  if (leftovers.length === 0) return '';
  return [`cleanup: ${leftovers.length} resource(s) the run created could NOT be deleted; delete them by hand:`,
    ...leftovers.map((l) => `  ${l.kind} ${l.id ?? ''}${l.name ? ` (${l.name})` : ''}: ${l.reason} [created by: ${l.test}]`)].join('\n');
}
