/**
 * Worker timings of one world's serverless surface, on the virtual clock. The spec shows none
 * of these (CHOICES.md); the control surface sets them (`PUT /__emulator/worlds/:id/timings`)
 * so tests can hold a job in IN_QUEUE (slow cold start) or IN_PROGRESS (slow handler).
 */
export interface Timings {
  /** Time for a new worker to become ready. */
  coldStartMs: number;
  /** Time every job spends in the handler before the input's own `sleepMs`. */
  executionMs: number;
  /** A job running longer than this ends TIMED_OUT (the live platform's default is 10 minutes). */
  executionTimeoutMs: number;
  /** How often the platform reruns a failed job on its own before it is FAILED. */
  automaticRetries: number;
}

/**
 * Defaults: zero-cost workers, so a job without `sleepMs` completes within the request that
 * submits it even when the clock is manual; tests that need time to pass set timings.
 */
export const DEFAULT_TIMINGS: Readonly<Timings> = Object.freeze({
  coldStartMs: 0,
  executionMs: 0,
  executionTimeoutMs: 600_000,
  automaticRetries: 1,
});

/** Inclusive bounds of each timing, so a typo cannot schedule a timer in the year 3000. */
const BOUNDS: Record<keyof Timings, [number, number]> = {
  coldStartMs: [0, 3_600_000],
  executionMs: [0, 3_600_000],
  executionTimeoutMs: [1, 86_400_000],
  automaticRetries: [0, 10],
};

export type TimingsParse = { ok: true; timings: Partial<Timings> } | { ok: false; errors: string[] };

/** Validates a partial timings object from the control surface; unknown keys are errors. */
export function parseTimings(value: unknown): TimingsParse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, errors: ['(root): must be an object of timings'] };
  const errors: string[] = [];
  const timings: Partial<Timings> = {};
  for (const [key, v] of Object.entries(value)) {
    const bounds = BOUNDS[key as keyof Timings] as [number, number] | undefined;
    if (!bounds) { errors.push(`/${key}: unknown timing (known: ${Object.keys(BOUNDS).join(', ')})`); continue; }
    if (!Number.isInteger(v) || (v as number) < bounds[0] || (v as number) > bounds[1]) {
      errors.push(`/${key}: must be an integer from ${bounds[0]} to ${bounds[1]}`);
      continue;
    }
    timings[key as keyof Timings] = v as number;
  }
  return errors.length ? { ok: false, errors } : { ok: true, timings };
}
