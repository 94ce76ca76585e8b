/** What a run could not delete: its strays found by name, and the leftovers file and lines. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiClient } from '../client/api.js';
import { runConfig } from '../run-config.js';
import type { Leftover, LeftoversFile, Resource } from '../protocol.js';
import { runPrefix } from './names.js';
import type { Registry } from './registry.js';

/**
 * Pods and network volumes listed on the target with this run's names that the record does
 * not hold: a create whose answer was lost (the connection broke) may still have made one.
 * Listing costs two requests; a list that fails finds nothing.
 */
export async function strays(api: ApiClient, runId: string, registry: Registry): Promise<Resource[]> {
  const prefix = runPrefix(runId);
  const seen = new Set([...registry.knownIds('pod', ''), ...registry.knownIds('networkVolume', '')]);
  const found: Resource[] = [];
  for (const [op, kind, member] of [['listPods', 'pod', 'pods'], ['listNetworkVolumes', 'networkVolume', 'networkVolumes']] as const) {
    const res = await api.op(op).catch(() => undefined);
    if (!res || res.status < 200 || res.status >= 300) continue;
    const body = res.body as Record<string, unknown> | unknown[] | undefined;
    const items = Array.isArray(body) ? body : Array.isArray(body?.[member]) ? body[member] as unknown[] : [];
    for (const item of items as { id?: unknown; name?: unknown }[]) {
      if (typeof item?.id !== 'string' || typeof item.name !== 'string' || !item.name.startsWith(prefix)) continue;
      const r: Resource = { kind, id: item.id, name: item.name, auth: 'main', test: '(found by its name: its creation was not recorded)' };
      if (!seen.has(item.id)) found.push(r);
    }
  }
  return found;
}

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
