/**
 * When a `/runsync` answer is on time (spec, Limits: "`wait` range | 1000 to 300000
 * milliseconds; it controls how long the request waits"; "Default wait | 90 seconds"). Times
 * are virtual on the emulator: a wait of W virtual ms lasts W / scale real ms. Pure ECMAScript.
 */
import { WAIT_MS } from '../../lib/iso/spec-constants.ts';

export interface Tolerance {
  /** Lateness allowed in the target's time (virtual ms on the emulator, real ms elsewhere). */
  virtualMs: number;
  /** Lateness always allowed in real ms (scheduling noise of a busy CI machine). */
  realFloorMs: number;
}

/** The real-time window in which an answer to a wait of `waitMs` is on time. */
export function waitWindow(waitMs: number, scale: number, tol: Tolerance): { earliestMs: number; latestMs: number } {
  const expected = waitMs / scale;
  // The emulator's clock floors virtual time, so an answer may be up to 1 virtual ms "early" in real terms.
  return { earliestMs: expected - 1 / scale - 1, latestMs: expected + Math.max(tol.virtualMs / scale, tol.realFloorMs) };
}

/** How late an answer was, in the target's time (negative: early). */
export const latenessVirtualMs = (elapsedRealMs: number, waitMs: number, scale: number): number => elapsedRealMs * scale - waitMs;

/** The probes: a job slower than each wait, and one that ends well within it. */
export interface WaitProbe {
  /** The query's `wait`, or undefined for the default (90 s). */
  wait: number | undefined;
  /** What the answer must wait for: the wait itself, or the default 90 s. */
  effectiveMs: number;
  /** The job's `sleepMs`: a minute longer than the wait for a slow probe, 5 s for a fast one. */
  sleepMs: number;
  kind: 'slow' | 'fast';
}

export function waitProbes(): WaitProbe[] {
  const probes: WaitProbe[] = [];
  for (const wait of [WAIT_MS.min, WAIT_MS.max, undefined]) {
    const effectiveMs = wait ?? WAIT_MS.default;
    probes.push({ wait, effectiveMs, sleepMs: effectiveMs + 60000, kind: 'slow' });
    // A 5 s job must come back COMPLETED; within a 1 s wait there is no such job (and a cold start would race it).
    if (effectiveMs >= 60000) probes.push({ wait, effectiveMs, sleepMs: 5000, kind: 'fast' });
  }
  return probes;
}

/**
 * Waits outside the range, each sent with a job slower than it, to record what the target does:
 * refuse it, clamp it into the range (500 answered after 1 s, 400000 after 300 s), or honour it.
 */
export const OUT_OF_RANGE_WAITS = [500, 400000] as const;

/** What an answer to an out-of-range wait shows, from its status and how long it took (target time). */
export function classifyOutOfRange(wait: number, status: number, elapsedVirtualMs: number): string {
  if (status >= 400 && status < 500) return `refused with ${status}`;
  if (status < 200 || status >= 300) return `answered ${status}`;
  const near = (ms: number) => Math.abs(elapsedVirtualMs - ms) <= Math.max(250, ms * 0.05);
  if (near(wait)) return 'honoured as given';
  if (near(wait < WAIT_MS.min ? WAIT_MS.min : WAIT_MS.max)) return `clamped into ${WAIT_MS.min}..${WAIT_MS.max}`;
  return `answered after ${Math.round(elapsedVirtualMs)} ms`;
}
