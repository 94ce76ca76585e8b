import type { VirtualClock, TimerHandle } from '../clock.js';

/** Platform notes: "on a failed delivery it tries 2 more times, 10 s apart". */
export const WEBHOOK = { attempts: 3, apartMs: 10_000, timeoutMs: 10_000 } as const;

/**
 * Whether the emulator delivers to `url`: http(s) to a loopback address only (emulator/README.md:
 * an emulator on a developer's machine or in CI posts nowhere else).
 */
export function deliverable(url: string): boolean {
  let parsed: URL;
  try { parsed = new URL(url); } catch { return false; }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = parsed.hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * One world's webhook deliveries: when a job with `webhook` ends, the body /status would answer
 * is POSTed there; a failed delivery (no answer, or not 2xx) is tried again 10 s later on the
 * world's clock, three tries in all. Disposing stops every delivery still to come.
 */
export class Webhooks {
  readonly #timers = new Set<TimerHandle>();
  readonly #inFlight = new Set<AbortController>();
  #disposed = false;

  constructor(private readonly clock: VirtualClock) {}

  deliver(url: string, body: Record<string, unknown>): void {
    if (!deliverable(url)) return;
    this.#attempt(url, JSON.stringify(body), 1);
  }

  dispose(): void {
    this.#disposed = true;
    for (const timer of this.#timers) timer.cancel();
    for (const controller of this.#inFlight) controller.abort();
    this.#timers.clear();
  }

  #attempt(url: string, text: string, attempt: number): void {
    // The next try counts from this one's start, so how long this one took moves nothing.
    const startedAt = this.clock.now();
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), WEBHOOK.timeoutMs);
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: controller.signal, redirect: 'manual' })
      .then(async (res) => { await res.arrayBuffer().catch(() => undefined); return res.ok; }, () => false)
      .then((ok) => {
        clearTimeout(timeout);
        this.#inFlight.delete(controller);
        if (ok || this.#disposed || attempt >= WEBHOOK.attempts) return;
        const timer = this.clock.at(startedAt + WEBHOOK.apartMs, () => { this.#timers.delete(timer); this.#attempt(url, text, attempt + 1); });
        this.#timers.add(timer);
      }, () => undefined);
  }
}
