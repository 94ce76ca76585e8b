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

// The policy changes only with the quotas, so its serialisation is kept per quota set.
const policyCache = new Map<string, string>();

function policyHeader(windows: readonly WindowState[]): string {
  const key = windows.map((w) => `${w.name}:${w.quota}:${w.seconds}`).join('|');
  let value = policyCache.get(key);
  if (value === undefined) {
    value = serializeList(windows.map((w) => [w.name, new Map([['q', w.quota], ['w', w.seconds]])]));
    if (policyCache.size > 1000) policyCache.clear();
    policyCache.set(key, value);
  }
  return value;
}

/** `RateLimit` and `RateLimit-Policy` as RFC 9651 lists of Strings with parameters. */
export function rateLimitHeaders(windows: readonly WindowState[]): { RateLimit: string; 'RateLimit-Policy': string } {
  return {
    RateLimit: serializeList(windows.map((w) => [w.name, new Map([['r', w.remaining], ['t', w.resetSeconds]])])),
    'RateLimit-Policy': policyHeader(windows),
  };
}
