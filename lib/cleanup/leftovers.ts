/** What a run could not delete: the ids its record holds (what listing the account finds beyond is a stray), and the leftovers file and lines. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runConfig } from '../run-config.js';
import type { Leftover, LeftoversFile } from '../protocol.js';
import type { Registry } from './registry.js';

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
