import type { ChaosHooks, Switches } from './switches.js';
import { World, type ApiKey, type WorldOptions } from './world.js';
import type { ChaosOptions, ChaosWorldOptions } from '../lib/chaos/options.js';
import { InternalError } from '../lib/errors.js';

export interface RegistryOptions {
  /** Options of the default world, which standalone users talk to. */
  defaultWorld?: Omit<WorldOptions, 'id'>;
  /** A fixed key for the default world's account (otherwise random). */
  defaultKey?: string;
  /** Legal chaos in every world that names none (`--chaos`): the default world and those the control surface makes. */
  chaos?: ChaosOptions;
  /** What switches a world's chaos on (emulator/chaos/, given by app.ts); without it no world has chaos. */
  chaosEngine?: (world: World, options: ChaosWorldOptions) => ChaosHooks;
}

/**
 * The emulator's worlds, and the index that routes a key to the world it was minted in. The
 * default world, with one account and a read-write key, serves whoever names no other.
 */
export class WorldRegistry {
  readonly worlds = new Map<string, World>();
  readonly #keyIndex = new Map<string, World>();
  readonly #switches: Switches;
  readonly defaultWorld: World;
  readonly defaultKey: ApiKey;
  #worldSeq = 0;
  readonly #chaos: Pick<RegistryOptions, 'chaos' | 'chaosEngine'>;
  /** Worlds given the registry's chaos so far: the key of each, in creation order. */
  #chaosWorlds = 0;

  /** `switches`: the fault and variant catalogs every world checks names against. */
  constructor(switches: Switches, options: RegistryOptions = {}) {
    this.#switches = switches;
    this.#chaos = { ...(options.chaos ? { chaos: options.chaos } : {}), ...(options.chaosEngine ? { chaosEngine: options.chaosEngine } : {}) };
    this.defaultWorld = this.createWorld({ ...options.defaultWorld, id: 'default' });
    const account = this.defaultWorld.createAccount('default');
    this.defaultKey = this.defaultWorld.mintKey(account.id, ['read', 'write'], 'default', options.defaultKey);
  }

  /** Creates an isolated world; keys minted in it authenticate into it. */
  createWorld(options: Partial<WorldOptions> = {}): World {
    const id = options.id ?? `w${(++this.#worldSeq).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    if (this.worlds.has(id)) throw new InternalError(`world ${id} exists`);
    const world = new World({ ...options, id }, this.#switches, (key, w) => this.#keyIndex.set(key.key, w));
    this.worlds.set(id, world);
    const chaos = options.chaos ?? (this.#chaos.chaos ? { ...this.#chaos.chaos, key: `world-${++this.#chaosWorlds}` } : undefined);
    if (chaos && this.#chaos.chaosEngine) {
      world.chaos = this.#chaos.chaosEngine(world, chaos);
      // The world's draws join its explicit variants.
      world.setVariants([...world.variants]);
    }
    return world;
  }

  deleteWorld(id: string): boolean {
    const world = this.worlds.get(id);
    if (!world || world === this.defaultWorld) return false;
    for (const key of world.keys.keys()) this.#keyIndex.delete(key);
    world.dispose();
    return this.worlds.delete(id);
  }

  worldOfKey(key: string): World | undefined {
    return this.#keyIndex.get(key);
  }

  /**
   * The world a request lands in: the world of the key it carries, else the world its
   * `x-emulator-world` header names (tests only), else the default world. Nothing is
   * authenticated here: an unknown key lands in the default world and is refused there.
   */
  worldFor(candidateKey: string | undefined, worldHeader: string | string[] | undefined): World {
    return (candidateKey !== undefined ? this.#keyIndex.get(candidateKey) : undefined)
      ?? (typeof worldHeader === 'string' ? this.worlds.get(worldHeader) : undefined)
      ?? this.defaultWorld;
  }

  dispose(): void {
    for (const world of this.worlds.values()) world.dispose();
  }
}
