/**
 * The target's time as a scenario reads it, so that no verdict depends on how fast the machine
 * running the scenario is. On an emulator world with a manual clock, time stands still until
 * the scenario moves it: every answer of a burst comes at one virtual instant however long the
 * burst takes in real time, and waiting is a step of the world's clock. Anywhere else the
 * target's time is the real clock (times the world's scale) and waiting is sleeping.
 */
import { sleep } from 'k6';
import { advanceClock, type Target } from './target.ts';

export interface TargetClock {
  /** The target's time (ms) at a real instant (ms, as `Date.now()`). */
  at(realMs: number): number;
  /** Lets `seconds` of the target's time pass (a real sleep, or one step of a manual clock). */
  pass(seconds: number): void;
  /** The real seconds that letting `seconds` of the target's time pass takes. */
  realSeconds(seconds: number): number;
}

/** The clock of one VU's target (closures, not a class: k6 runs this). */
export function targetClock(target: Target): TargetClock {
  const manual = target.manualClockMs;
  if (manual !== undefined) {
    let now = manual;
    return {
      at: () => now,
      pass: (seconds) => { now = advanceClock(target, Math.ceil(seconds * 1000)); },
      realSeconds: () => 0,
    };
  }
  return {
    at: (realMs) => realMs * target.scale,
    // A hundredth of a second more: the target's own clock and this one are not the same clock.
    pass: (seconds) => { sleep(seconds / target.scale + 0.01); },
    realSeconds: (seconds) => seconds / target.scale,
  };
}
