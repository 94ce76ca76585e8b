import fc from 'fast-check';
import type { PodModel, PodReal } from './model.js';

/** Moves the target's virtual clock; the next getPod learns what it did. */
export class AdvanceClockCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly ms: number) {}

  check = (): boolean => true;

  async run(m: PodModel, r: PodReal): Promise<void> {
    await r.advance(this.ms);
    m.clock += this.ms;
  }

  toString = (): string => `advance(${this.ms} ms)`;
}

/** Mostly steps of seconds (to see each status), sometimes minutes (past the readiness bound). */
export const advanceClockCommand = (): fc.Arbitrary<AdvanceClockCommand> => fc.oneof(
  { arbitrary: fc.integer({ min: 500, max: 20_000 }), weight: 4 },
  { arbitrary: fc.integer({ min: 60_000, max: 15 * 60_000 }), weight: 1 },
).map((ms) => new AdvanceClockCommand(ms));
