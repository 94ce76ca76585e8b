import { serializeList } from 'structured-headers';

/** The spec's three windows, in the order the headers list them. */
export const WINDOWS = [
  { name: 'minute', seconds: 60 },
  { name: 'hour', seconds: 3600 },
  { name: 'day', seconds: 86400 },
] as const;

export type WindowName = (typeof WINDOWS)[number]['name'];
export type Quotas = Record<WindowName, number>;

/** The live platform's published example quotas (platform notes); the spec does not show them. */
export const LIVE_QUOTAS: Quotas = { minute: 60, hour: 3000, day: 50000 };

export interface WindowState { name: WindowName; quota: number; seconds: number; remaining: number; resetSeconds: number }

export type RateDecision =
  | { allowed: true; windows: WindowState[] }
  | { allowed: false; windows: WindowState[]; exceeded: WindowState };

/**
 * Fixed-window counters per account, aligned to multiples of the window length on the
 * world's virtual clock. A request is admitted when every window has quota left and then
 * counts against all three; a refused request counts against none.
 */
export class RateLimiter {
  #counts = new Map<string, Map<WindowName, { index: number; count: number }>>();

  constructor(public quotas: Quotas) {}

  check(accountId: string, nowMs: number): RateDecision {
    let perAccount = this.#counts.get(accountId);
    if (!perAccount) { perAccount = new Map(); this.#counts.set(accountId, perAccount); }
    const states: WindowState[] = [];
    let exceeded: WindowState | undefined;
    for (const w of WINDOWS) {
      const lengthMs = w.seconds * 1000;
      const index = Math.floor(nowMs / lengthMs);
      let slot = perAccount.get(w.name);
      if (!slot || slot.index !== index) { slot = { index, count: 0 }; perAccount.set(w.name, slot); }
      const quota = this.quotas[w.name];
      const resetSeconds = Math.max(1, Math.ceil(((index + 1) * lengthMs - nowMs) / 1000));
      const state: WindowState = { name: w.name, quota, seconds: w.seconds, remaining: Math.max(0, quota - slot.count), resetSeconds };
      if (slot.count >= quota && (!exceeded || resetSeconds > exceeded.resetSeconds)) exceeded = state;
      states.push(state);
    }
    if (exceeded) return { allowed: false, windows: states, exceeded };
    for (const w of WINDOWS) perAccount.get(w.name)!.count++;
    for (const s of states) s.remaining = Math.max(0, s.remaining - 1);
    return { allowed: true, windows: states };
  }

  reset(): void {
    this.#counts.clear();
  }
}

// The policy changes only with the quotas: the last serialisation is kept and reused while
// the quotas and window lengths stay the same (each world has one quota set).
let lastPolicy: { key: readonly number[]; value: string } | undefined;

function policyHeader(windows: readonly WindowState[]): string {
  const key = lastPolicy?.key;
  if (key && key.length === windows.length * 2 && windows.every((w, i) => key[2 * i] === w.quota && key[2 * i + 1] === w.seconds)) return lastPolicy!.value;
  const value = serializeList(windows.map((w) => [w.name, new Map([['q', w.quota], ['w', w.seconds]])]));
  lastPolicy = { key: windows.flatMap((w) => [w.quota, w.seconds]), value };
  return value;
}

/** RFC 9651 section 3.3.1: an Integer has at most 15 decimal digits. */
const isSfInteger = (n: number): boolean => Number.isSafeInteger(n) && Math.abs(n) <= 999_999_999_999_999;

/**
 * The `RateLimit` value. Each response has its own counts, so it is serialised per request:
 * window names are the spec's fixed tokens ("minute", "hour", "day", plain ASCII that needs no
 * escaping as an sf-string) and the parameters Integers, which a template writes exactly as
 * structured-headers does (test/core-rate-limit.test.ts checks the two agree on any counts);
 * anything else goes through structured-headers.
 */
function limitHeader(windows: readonly WindowState[]): string {
  let out = '';
  for (const w of windows) {
    if (!isSfInteger(w.remaining) || !isSfInteger(w.resetSeconds)) {
      return serializeList(windows.map((x) => [x.name, new Map([['r', x.remaining], ['t', x.resetSeconds]])]));
    }
    out += `${out === '' ? '' : ', '}"${w.name}";r=${w.remaining};t=${w.resetSeconds}`;
  }
  return out;
}

/** `RateLimit` and `RateLimit-Policy` as RFC 9651 lists of Strings with parameters. */
export function rateLimitHeaders(windows: readonly WindowState[]): { RateLimit: string; 'RateLimit-Policy': string } {
  return { RateLimit: limitHeader(windows), 'RateLimit-Policy': policyHeader(windows) };
}
