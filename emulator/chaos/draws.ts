import { createHash } from 'node:crypto';

/**
 * Numbers drawn from a seed and a key, the same on every machine and in every order: a draw is
 * a function of what it is about (the world's key, the operation, the resource, how many such
 * requests came before), never of when it happens, so a seed replays on the virtual clock and
 * gives the same draws on a real one. SHA-256 of the seed and the key gives eight independent
 * 32-bit numbers per key.
 */
export class Draws {
  readonly #bytes: Buffer;

  constructor(seed: number, key: string) {
    this.#bytes = createHash('sha256').update(`${seed}\u0000${key}`).digest();
  }

  /** The `i`-th number of this key (0 to 7), in [0, 1). */
  unit(i: number): number {
    return this.#bytes.readUInt32BE((i % 8) * 4) / 2 ** 32;
  }

  /** An integer from `min` to `max`, both included. */
  between(i: number, min: number, max: number): number {
    return min + Math.floor(this.unit(i) * (max - min + 1));
  }

  /** One of `items`. */
  pick<T>(i: number, items: readonly T[]): T {
    return items[Math.floor(this.unit(i) * items.length)]!;
  }
}
