/** One test's record of what it made, against its declaration (lib/plan.ts). */
import type { ApiClient } from '../client/api.js';
import { zeroCounts, type CountKind, type Counts } from '../plan.js';
import type { Resource } from '../protocol.js';
import { keyOf, type Registry } from './registry.js';
import { watch, type Sink } from './watch.js';

/**
 * One test's tracker: records into the registry (on a deployment) and keeps the test's own open
 * resources, so its teardown deletes them at once (the run's teardown catches the rest). It
 * also counts what the test made by kind, against its declaration (lib/plan.ts): what a pool
 * makes while {@link pool} is set belongs to the pool, not to the test.
 */
export class TestTracker {
  readonly open = new Map<string, Resource>();
  /** What the test made itself, by kind. */
  readonly made: Counts = zeroCounts();
  /** Set while a pooled resource is made: its creations belong to that pool. */
  pool: string | undefined;
  /** What each pool made while it was set (a pool made inside another's maker keeps its own). */
  readonly poolMade = new Map<string, Resource[]>();
  constructor(readonly registry: Registry | undefined, readonly test: string) {}

  readonly sink: Sink = {
    created: (r) => {
      const full: Resource = { ...r, test: this.test, ...(this.pool ? { pool: this.pool } : {}) };
      if (this.pool) this.poolMade.set(this.pool, [...(this.poolMade.get(this.pool) ?? []), full]);
      else {
        this.open.set(keyOf(full), full);
        const kind = countKindOf(full);
        this.made[kind] += 1;
        if (kind === 'endpoints' && (full.shape?.workersMin ?? 0) > 0) this.made.warmEndpoints += 1;
      }
      this.registry?.add(full);
    },
    deleted: (r) => {
      if (r.id === undefined && r.name === undefined) return;
      // Another key's deletion of this test's resource deleted nothing of it (registry.ts `done`).
      if (this.open.get(keyOf(r))?.auth === r.auth) this.open.delete(keyOf(r));
      this.registry?.done(r);
    },
    warmed: () => { if (!this.pool) this.made.warmEndpoints += 1; },
  };

  attach(api: ApiClient): void { api.observers.push((e) => watch(e, this.sink)); }
}

/** The plan's kind of a created resource. */
export function countKindOf(r: Pick<Resource, 'kind' | 'shape'>): CountKind {
  switch (r.kind) {
    case 'pod': return r.shape?.cpu && !r.shape.gpu ? 'cpuPods' : 'gpuPods';
    case 'networkVolume': return 'networkVolumes';
    case 'endpoint': return 'endpoints';
    case 'template': return 'templates';
    case 'secret': return 'secrets';
  }
}
