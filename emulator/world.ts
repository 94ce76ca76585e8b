import { randomBytes } from 'node:crypto';
import { VirtualClock, type ClockSettings } from './clock.js';
import { RateLimiter, LIVE_QUOTAS, type Quotas } from './rate-limit.js';
import type { ChaosHooks, FaultId, Switches, VariantId } from './switches.js';
import type { ChaosWorldOptions } from '../lib/chaos/options.js';
import { InternalError, UnknownFaultError, UnknownVariantError } from '../lib/errors.js';

/** What a key may do. `read` covers reads; `write` covers creating, changing and running. */
export type Scope = 'read' | 'write';

export interface Account { id: string; name: string }
export interface ApiKey { key: string; accountId: string; scopes: ReadonlySet<Scope>; label: string; /** Virtual time after which the key is expired. */ expiresAt?: number }

/** A typed slot of per-world state that a surface owns (pods, jobs, GraphQL objects...). */
export interface Slice<T> { readonly name: string; create(world: World): T }
export const defineSlice = <T>(name: string, create: (world: World) => T): Slice<T> => ({ name, create });

export interface WorldOptions {
  id: string;
  quotas?: Partial<Quotas>;
  clock?: Partial<ClockSettings>;
  startAt?: number;
  faults?: readonly string[];
  /** Variant and variant-set names (emulator/variants.ts). */
  variants?: readonly string[];
  seed?: number;
  /** Legal chaos (emulator/chaos/): the registry switches it on once the world exists. */
  chaos?: ChaosWorldOptions;
  /** Queue-based endpoints are served by worker processes outside the emulator (serverless/worker-routes.ts). */
  outsideWorkers?: boolean;
}

/**
 * One isolated universe: accounts, keys, a virtual clock, rate limits, faults, variants and every
 * surface's state. Worlds let parallel tests each own their clock and state on one emulator.
 */
export class World {
  readonly id: string;
  readonly clock: VirtualClock;
  readonly rateLimiter: RateLimiter;
  readonly accounts = new Map<string, Account>();
  readonly keys = new Map<string, ApiKey>();
  readonly faults = new Set<FaultId>();
  readonly variants = new Set<VariantId>();
  readonly seed: number;
  /** Its queue-based endpoints' jobs are taken by outside workers, not run by the built-in handler. */
  readonly outsideWorkers: boolean;
  /** The world's legal chaos, when on (set by the registry, worlds.ts). */
  chaos: ChaosHooks | undefined = undefined;
  #slices = new Map<string, unknown>();
  #disposers: (() => void)[] = [];
  #ids = 0;
  /** The seed's part of every id, computed once. */
  readonly #idSuffix: string;

  /**
   * `switches` are the fault and variant catalogs, assembled at the top (`catalog.ts`);
   * `onKey` learns of every key minted here (the registry routes keys to their world).
   */
  constructor(options: WorldOptions, private readonly switches: Switches, private readonly onKey: (key: ApiKey, world: World) => void) {
    this.id = options.id;
    this.seed = options.seed ?? 1;
    this.outsideWorkers = options.outsideWorkers === true;
    this.#idSuffix = (this.seed % 1296).toString(36).padStart(2, '0');
    this.clock = new VirtualClock(options.startAt ?? Date.UTC(2026, 0, 1), { mode: 'manual', scale: 1, ...options.clock });
    this.rateLimiter = new RateLimiter({ ...LIVE_QUOTAS, ...options.quotas });
    this.setFaults(options.faults ?? []);
    this.setVariants(options.variants ?? []);
  }

  /** The surface state for `slice`, created on first use. */
  get<T>(slice: Slice<T>): T {
    let value = this.#slices.get(slice.name) as T | undefined;
    if (value === undefined) {
      value = slice.create(this);
      this.#slices.set(slice.name, value);
    }
    return value;
  }

  /** Registers cleanup (timers, intervals) run on reset and disposal. */
  onDispose(fn: () => void): void {
    this.#disposers.push(fn);
  }

  fault(id: FaultId): boolean {
    return this.faults.has(id);
  }

  setFaults(ids: readonly string[]): void {
    const unknown = ids.filter((id) => !this.switches.isFault(id));
    if (unknown.length > 0) throw new UnknownFaultError(unknown);
    this.faults.clear();
    for (const id of ids) this.faults.add(id as FaultId);
  }

  /** Whether the world answers with this conforming variant (emulator/variants.ts). */
  variant(id: VariantId): boolean {
    return this.variants.has(id);
  }

  /** Replaces the world's variants; set names (`live`) stand for their variants. */
  setVariants(names: readonly string[]): void {
    const { ids, unknown } = this.switches.expandVariants(names);
    if (unknown.length > 0) throw new UnknownVariantError(unknown, this.switches.variantNames);
    this.variants.clear();
    for (const id of ids) this.variants.add(id);
    this.chaos?.addVariants(this.variants);
  }

  /** Ids unique within the world, readable in evidence: `pod_0001a`. Deterministic per world. */
  nextId(prefix: string): string {
    this.#ids++;
    return `${prefix}${this.#ids.toString(36).padStart(5, '0')}${this.#idSuffix}`;
  }

  createAccount(name: string): Account {
    const account: Account = { id: this.nextId('acct_'), name };
    this.accounts.set(account.id, account);
    return account;
  }

  mintKey(accountId: string, scopes: readonly Scope[], label: string, fixed?: string, expiresAt?: number): ApiKey {
    if (!this.accounts.has(accountId)) throw new InternalError(`unknown account ${accountId}`);
    const key: ApiKey = { key: fixed ?? `cpk_${randomBytes(18).toString('base64url')}`, accountId, scopes: new Set(scopes), label, ...(expiresAt !== undefined ? { expiresAt } : {}) };
    this.keys.set(key.key, key);
    this.onKey(key, this);
    return key;
  }

  /** Drops every surface's state and the rate-limit counters; accounts and keys stay. */
  resetState(): void {
    this.#runDisposers();
    this.#slices.clear();
    this.rateLimiter.reset();
  }

  dispose(): void {
    this.#runDisposers();
    this.#slices.clear();
    this.clock.dispose();
  }

  #runDisposers(): void {
    for (const fn of this.#disposers.splice(0)) fn();
  }
}
