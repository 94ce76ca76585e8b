import fc from 'fast-check';
import type { PodModel, PodReal } from './model.js';

/** Moves the target's virtual clock; the next getPod learns what it did. */
export class AdvanceClockCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly ms: number) {}

  check = (): boolean => true;

  async run(_m: PodModel, r: PodReal): Promise<void> {
    await r.advance(this.ms);
  }

  toString = (): string => `advance(${this.ms} ms)`;
}

export const advanceClockCommand = (): fc.Arbitrary<AdvanceClockCommand> => fc.integer({ min: 500, max: 20_000 }).map((ms) => new AdvanceClockCommand(ms));
