import { createHash } from 'node:crypto';
import { readRateLimit } from '../iso/rate-limit-fields.js';
import { RATE_WINDOWS } from '../iso/spec-constants.js';
import type { HttpRequest, HttpResponse, Transport } from './transport.js';

/**
 * Pacing by the target's own rate-limit headers (spec, Limits: `RateLimit` gives each window's
 * remaining `r` and seconds to reset `t`; a 429 carries `Retry-After`).
 *
 * One {@link Pacer} per worker process holds, per credential, the latest windows the target
 * reported. Before a request it waits when a window runs low: the remaining requests of the
 * window, divided among the run's workers, are spread over the seconds left in it (none left:
 * wait for the reset). On a 429 it did not ask for, it waits `Retry-After` and sends again,
 * within a time budget per test. A request with `pace: false` goes out at once and gets its 429
 * (tests that exhaust a window on purpose); its answer still informs the pacer.
 */
export interface PacerOptions {
  /** Workers sharing the account's windows (each takes its share of what remains). */
  workers?: number;
  /** Pace a window once its remaining `r` is at or below this share of its quota (default 0.2). */
  lowShare?: number;
  /** ... or at or below this many requests per worker, whichever is larger (default 3). */
  lowPerWorker?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface WindowView { r: number; resetAt: number; q?: number }

/** What a test's transport waited for, for its report note. */
export interface PacingStats {
  /** Milliseconds spent waiting before requests (low windows). */
  pacedMs: number;
  /** Milliseconds spent waiting after 429 answers (Retry-After). */
  retryAfterMs: number;
  /** 429 answers waited out and sent again. */
  retried: number;
  /** 429 answers given back because the time budget would have been exceeded. */
  gaveUp: number;
}

export const emptyStats = (): PacingStats => ({ pacedMs: 0, retryAfterMs: 0, retried: 0, gaveUp: 0 });

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Which account's windows a request counts against: its credential, by fingerprint. */
export function credentialOf(req: HttpRequest): string | undefined {
  const header = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  let key = header?.replace(/^Bearer\s+/i, '');
  if (!key) {
    try { key = new URL(req.url).searchParams.get('api_key') ?? undefined; } catch { key = undefined; }
  }
  return key ? createHash('sha256').update(key).digest('hex').slice(0, 16) : undefined;
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110); undefined if absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export class Pacer {
  readonly workers: number;
  readonly #lowShare: number;
  readonly #lowPerWorker: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly #windows = new Map<string, Map<string, WindowView>>();
  /** Per credential: when this worker may send next (requests queue behind each other). */
  readonly #nextAt = new Map<string, number>();

  constructor(options: PacerOptions = {}) {
    this.workers = Math.max(1, Math.floor(options.workers ?? 1));
    this.#lowShare = options.lowShare ?? 0.2;
    this.#lowPerWorker = options.lowPerWorker ?? 3;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** How long to wait before the next request with this credential, and reserves that slot. */
  reserve(credential: string): number {
    const now = this.now();
    const windows = this.#windows.get(credential);
    let at = Math.max(now, this.#nextAt.get(credential) ?? 0);
    let spacing = 0;
    for (const w of windows?.values() ?? []) {
      if (w.resetAt <= at) continue;
      const share = w.r / this.workers;
      const low = Math.max(this.#lowPerWorker, ((w.q ?? 0) * this.#lowShare) / this.workers);
      if (share >= 1 && share > low) continue;
      if (share < 1) { at = Math.max(at, w.resetAt); continue; }
      spacing = Math.max(spacing, (w.resetAt - at) / share);
    }
    // Count this request against what remains, so concurrent callers spread out too.
    for (const w of windows?.values() ?? []) if (w.resetAt > at) w.r = Math.max(0, w.r - 1);
    this.#nextAt.set(credential, at + spacing);
    return at - now;
  }

  /** Learns the windows from an answer's `RateLimit` (and quotas from `RateLimit-Policy`). */
  observe(credential: string, headers: Record<string, string>): void {
    if (headers.ratelimit === undefined) return;
    const snapshot = readRateLimit(headers);
    const now = this.now();
    const windows = this.#windows.get(credential) ?? new Map<string, WindowView>();
    for (const name of RATE_WINDOWS) {
      const limit = snapshot.limit[name];
      if (!limit) continue;
      windows.set(name, { r: limit.r, resetAt: now + limit.t * 1000, ...(snapshot.policy[name] ? { q: snapshot.policy[name].q } : {}) });
    }
    this.#windows.set(credential, windows);
  }

  /** After a 429: nothing remains until `untilMs` from now. */
  exhausted(credential: string, untilMs: number): void {
    const windows = this.#windows.get(credential) ?? new Map<string, WindowView>();
    windows.set('429', { r: 0, resetAt: this.now() + untilMs });
    this.#windows.set(credential, windows);
  }
}

export interface PacedTransportOptions {
  /** Longest total wait for this transport's requests (default CPC_RATE_LIMIT_BUDGET_MS, 5 minutes). */
  budgetMs?: number;
  /** Pacing off for every request (a test that sets its own emulator quotas). */
  disabled?: () => boolean;
  /** Told before each wait (a test extends its timeout by it: waiting for the target is not the test being slow). */
  onWait?: (ms: number) => void;
}

export const DEFAULT_RATE_LIMIT_BUDGET_MS = 5 * 60_000;

/**
 * A transport that paces by the {@link Pacer} and waits out unrequested 429s. `stats` says how
 * long it waited. A request with `pace: false` is sent as it is, once.
 */
export function pacedTransport(inner: Transport, pacer: Pacer, options: PacedTransportOptions = {}): Transport & { stats: PacingStats } {
  const budgetMs = options.budgetMs ?? DEFAULT_RATE_LIMIT_BUDGET_MS;
  const stats = emptyStats();
  const waited = () => stats.pacedMs + stats.retryAfterMs;
  return {
    stats,
    async send(req) {
      const credential = credentialOf(req);
      if (credential === undefined || req.pace === false || options.disabled?.()) {
        const res = await inner.send(req);
        if (credential !== undefined) {
          pacer.observe(credential, res.headers);
          if (res.status === 429) pacer.exhausted(credential, retryAfterMs(res.headers['retry-after'], pacer.now()) ?? 1000);
        }
        return res;
      }
      for (;;) {
        const wait = Math.min(pacer.reserve(credential), Math.max(0, budgetMs - waited()));
        if (wait > 0) { stats.pacedMs += wait; options.onWait?.(wait); await pacer.sleep(wait); }
        const res: HttpResponse = await inner.send(req);
        pacer.observe(credential, res.headers);
        if (res.status !== 429) return res;
        const after = retryAfterMs(res.headers['retry-after'], pacer.now()) ?? 1000;
        pacer.exhausted(credential, after);
        if (waited() + after > budgetMs) { stats.gaveUp += 1; return res; }
        stats.retried += 1;
        stats.retryAfterMs += after;
        options.onWait?.(after);
        await pacer.sleep(after);
      }
    },
  };
}
