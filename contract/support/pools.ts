import type { ApiClient } from '../../lib/client/api.js';
import { InternalError, type Finding } from '../../lib/errors.js';
import { poolClosure, type PoolName } from '../../lib/plan.js';
import { deleteResource, type Resource, type TestTracker } from '../../lib/cleanup.js';

/**
 * Pooled resources (lib/plan.ts): what checks only read, or what refusals leave unchanged, made
 * once per worker on a deployment and lent to each test that declares it. A test that changes
 * a pooled resource says how to put it back ({@link Pools.restoreAfter}); a restore that fails,
 * or a test that failed while holding one, retires the resource (deleted at once, made again
 * for the next borrower), so one test's effect never decides another's rule; a restore that
 * exercises a rule and fails fails that rule, never only the pool. In an emulator
 * world every test makes its own, exactly as before: a world per test, free and parallel.
 */
export interface Pools {
  /**
   * The pooled resource `name`: the worker's when shared, else made now by `make` (whose
   * creations are recorded as the pool's, not the test's). The test must declare the pool.
   */
  borrow<T>(name: PoolName, make: () => Promise<T>): Promise<T>;
  /**
   * After the test, `restore` puts `name` back as it was lent; false or a throw retires it. When
   * the restore exercises a rule (a second path change is a path change), its failure is that
   * rule's finding too, and it runs in every world, shared or not, so the check is the same.
   */
  restoreAfter(name: PoolName, restore: () => Promise<boolean>, rule?: string): void;
  /**
   * Gives back everything borrowed: restores, retires what failed (or everything, after a failed
   * test). Returns the findings of the restores that exercise a rule and failed.
   */
  returnAll(failed: boolean): Promise<Finding[]>;
  /**
   * The pooled resource `name` when it is already made (this worker's on a deployment, the
   * test's own in a world), without making it or borrowing it: what a pool already shows (its
   * pod was placed) need not be asked of the target again.
   */
  peek<T>(name: PoolName): T | undefined;
  /** Whether pooled resources are shared with other tests (a deployment), so a test must leave them as lent. */
  readonly shared: boolean;
}

interface Held { value: unknown; resources: Resource[] }

/** A worker's pooled resources, across its tests (Playwright worker fixture). */
export class PoolShelf {
  readonly held = new Map<PoolName, Held>();
  /** Pools being made now, so that two borrowers in one test share one. */
  readonly making = new Map<PoolName, Promise<unknown>>();
}

export function borrowing(shelf: PoolShelf, ctx: { api: ApiClient; tracker: TestTracker; shared: boolean; declared: readonly PoolName[] }): Pools {
  const allowed = poolClosure(ctx.declared);
  const own = new Map<PoolName, Held>();
  const restores: { name: PoolName; restore: () => Promise<boolean>; rule?: string }[] = [];
  const borrowed = new Set<PoolName>();
  const store = ctx.shared ? shelf.held : own;

  // What the maker creates is the pool's (the tracker keeps it by pool), so a retirement deletes
  // exactly that: a pool the maker borrows in turn (the network pod's volume) keeps its own.
  const make = async <T>(name: PoolName, maker: () => Promise<T>): Promise<T> => {
    const previous = ctx.tracker.pool;
    ctx.tracker.pool = name;
    ctx.tracker.poolMade.delete(name);
    try {
      const value = await maker();
      store.set(name, { value, resources: ctx.tracker.poolMade.get(name) ?? [] });
      return value;
    } finally {
      ctx.tracker.pool = previous;
    }
  };

  const retire = async (name: PoolName): Promise<void> => {
    const held = store.get(name);
    store.delete(name);
    for (const r of [...(held?.resources ?? [])].reverse()) await deleteResource(ctx.api, r);
  };

  return {
    shared: ctx.shared,
    async borrow<T>(name: PoolName, maker: () => Promise<T>): Promise<T> {
      if (!allowed.has(name)) throw new InternalError(`the test borrows the pooled ${name} without declaring it: rules(..., creates({ pools: ['${name}'] }))`);
      borrowed.add(name);
      const held = store.get(name);
      if (held) return held.value as T;
      const pending = shelf.making.get(name);
      if (pending && ctx.shared) return pending as Promise<T>;
      const p = make(name, maker);
      if (ctx.shared) shelf.making.set(name, p);
      try { return await p; } finally { if (ctx.shared) shelf.making.delete(name); }
    },
    peek<T>(name: PoolName): T | undefined {
      return store.get(name)?.value as T | undefined;
    },
    restoreAfter(name, restore, rule) { restores.push({ name, restore, ...(rule ? { rule } : {}) }); },
    async returnAll(failed) {
      const findings: Finding[] = [];
      for (const { name, restore, rule } of restores) {
        if (!ctx.shared && (failed || rule === undefined)) continue;
        let ok: boolean;
        let why = 'it did not take';
        try { ok = !failed && await restore(); } catch (e) { ok = false; why = (e as Error).message; }
        if (!ok && rule !== undefined && !failed) findings.push({ rule, message: `putting the pooled ${name} back as lent (the same change the other way) failed: ${why}` });
        if (!ok && ctx.shared && store.has(name)) await retire(name);
      }
      if (failed && ctx.shared) for (const name of borrowed) if (store.has(name)) await retire(name);
      if (!ctx.shared) own.clear();
      return findings;
    },
  };
}
