/**
 * What the account holds under a run's names, by looking: the record says what the run's
 * deletions answered, the account says what is still there. A resource still listed after the
 * teardown is a leftover whatever the record says (a deletion that answered and did nothing, a
 * deletion recorded from the wrong answer).
 */
import type { ApiClient, KeyRole } from '../client/api.js';
import type { Leftover, Resource } from '../protocol.js';
import { runPrefix, STRAY } from './names.js';
import { sweep, type SweepOptions } from './sweep.js';

type Listed = Pick<Resource, 'kind' | 'id' | 'name' | 'auth'>;

/** Items of a list answer: a bare array or one wrapped under `member` (the answer shape is not shown). */
const itemsOf = (body: unknown, member: string): { id?: unknown; name?: unknown }[] => {
  const b = body as Record<string, unknown> | unknown[] | undefined;
  const items = Array.isArray(b) ? b : Array.isArray(b?.[member]) ? b[member] as unknown[] : [];
  return items as { id?: unknown; name?: unknown }[];
};

/**
 * Pods, network volumes and endpoints each key role lists with names starting with the run's
 * prefix (templates cannot be listed: the spec names no such operation). A list that fails
 * finds nothing; three requests per role.
 */
export async function heldByRun(api: ApiClient, runId: string, roles: readonly KeyRole[]): Promise<Listed[]> {
  const prefix = runPrefix(runId);
  const found: Listed[] = [];
  const keep = (kind: Resource['kind'], auth: KeyRole, items: { id?: unknown; name?: unknown }[]) => {
    for (const item of items) if (typeof item?.id === 'string' && typeof item.name === 'string' && item.name.startsWith(prefix)) found.push({ kind, id: item.id, name: item.name, auth });
  };
  for (const auth of roles) {
    for (const [op, kind, member] of [['listPods', 'pod', 'pods'], ['listNetworkVolumes', 'networkVolume', 'networkVolumes']] as const) {
      const res = await api.op(op, { auth }).catch(() => undefined);
      if (res && res.status >= 200 && res.status < 300) keep(kind, auth, itemsOf(res.body, member));
    }
    const gql = await api.graphql('query { myself { endpoints { id name } } }', undefined, { auth }).catch(() => undefined);
    const endpoints = (gql?.body as { data?: { myself?: { endpoints?: unknown } } } | undefined)?.data?.myself?.endpoints;
    if (gql && gql.status === 200) keep('endpoint', auth, itemsOf(endpoints, 'endpoints'));
  }
  return found;
}

const same = (a: Pick<Resource, 'kind' | 'id'>, b: Pick<Resource, 'kind' | 'id'>): boolean => a.kind === b.kind && a.id === b.id;

/**
 * After the teardown's sweep: lists what the account still holds under the run's names; what
 * is listed and not already a leftover is deleted again (the sweep's retries), then listed once
 * more. What is still there is returned as leftovers, with the reason, whatever the record says.
 * With `recorded` (the ids the run's record holds), what is listed and not among them is named
 * as never recorded (a create whose answer was lost): the one listing finds both.
 */
export async function stillHeld(api: ApiClient, runId: string, roles: readonly KeyRole[], left: readonly Leftover[], options: SweepOptions & { recorded?: ReadonlySet<string> } = {}): Promise<Leftover[]> {
  const listed = (await heldByRun(api, runId, roles)).filter((r) => !left.some((l) => same(l, r)));
  if (listed.length === 0) return [];
  const { recorded, ...sweeping } = options;
  const madeBy = (r: Listed): string => (recorded && !recorded.has(r.id!) ? STRAY : '(still listed by the account after the teardown)');
  const strays = listed.filter((r) => madeBy(r) === STRAY).length;
  options.log?.(`cleanup: ${listed.length} resource(s) named by this run are still listed after the teardown${strays ? ` (${strays} never recorded: a create whose answer was lost)` : ''}: deleting them again`);
  const resources: Resource[] = listed.map((r) => ({ ...r, test: madeBy(r) }));
  const failed = await sweep(api, resources, sweeping);
  const again = (await heldByRun(api, runId, roles)).filter((r) => !left.some((l) => same(l, r)));
  return again.map((r) => ({ ...r, test: madeBy(r),
    reason: failed.find((f) => same(f, r))?.reason ?? (madeBy(r) === STRAY ? 'still listed by the account after its deletion was answered' : 'still listed by the account after the teardown, though its deletion was answered (the record said deleted)') }));
}
