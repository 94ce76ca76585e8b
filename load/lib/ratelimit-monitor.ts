/**
 * What the rate-limit scenario asserts about a stream of responses, as a pure state machine
 * (one per VU) so that k6 and the Node tests run the same logic. Requests go out in batches of
 * concurrent requests; a batch's responses have no order among themselves, so order-based
 * rules compare a batch only with what came before it.
 *
 * Window instances: a fixed window resets at one instant. From a response's `t` and the time it
 * arrived on the target's clock, the reset instant is known within a second (plus the network's
 * latency), so responses whose estimated reset instants lie within half a window of each other
 * belong to one instance: each answer is judged in the window it states, so a window that rolls
 * over during a burst starts a new instance, never a miss. All times are the target's (ms):
 * the real clock on a deployment, the virtual one of an emulator world (load/lib/target-clock.ts).
 */
import { CHECK } from './ratelimit-checks.ts';
import { complete, headerValue, problemMessages, readRateLimit, type PolicyMember } from '../../lib/iso/rate-limit-fields.ts';
import { RATE_WINDOW_SECONDS, RATE_WINDOWS, type RateWindow } from '../../lib/iso/spec-constants.ts';

export interface Observed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string | null;
  /**
   * When the answer's first byte arrived (the target's time, ms): the batch's start plus k6's
   * `blocked + connecting + tls_handshaking + sending + waiting`. Without it, the batch's middle.
   */
  atMs?: number;
}

/** One named check's result; `why` says what was seen when it failed. */
export interface Outcome { name: string; ok: boolean; why?: string }

export interface MonitorOptions {
  /** The policy every response must show; when absent, the first complete response's policy. */
  baseline?: Record<RateWindow, PolicyMember>;
  /** True when nobody else spends this VU's quota, so refusals can be counted exactly. */
  ownAccount: boolean;
}

interface Instance { resetV: number; lastR: number; admitted: Set<number> }
interface Point { index: number; r: number; t: number; resetV: number; admitted: boolean }

const ok = (name: string, pass: boolean, why: string): Outcome => (pass ? { name, ok: true } : { name, ok: false, why });

function detailOf(body: string | null): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { detail?: unknown };
    return typeof parsed.detail === 'string' ? parsed.detail : undefined;
  } catch {
    return undefined;
  }
}

export interface RateLimitMonitor {
  /** Checks one batch of concurrent responses, sent no earlier than `startMs` and all answered by `endMs` (the target's time). */
  observeBatch(responses: readonly Observed[], startMs: number, endMs: number): Outcome[];
  /** The lowest `r` of the window's latest instance (what is left of it), once an answer placed one. */
  remaining(w: RateWindow): number | undefined;
}

/** A monitor for one VU's responses (closures, not a class: k6 runs this). */
export function createMonitor(o: MonitorOptions): RateLimitMonitor {
  let baseline = o.baseline;
  const instances: Partial<Record<RateWindow, Instance>> = {};

  function observeBatch(responses: readonly Observed[], startMs: number, endMs: number): Outcome[] {
    const out: Outcome[] = [];
    const readings = responses.map((res) => ({ res, reading: readRateLimit(res.headers) }));
    for (const { res, reading } of readings) {
      out.push(ok(CHECK.status, res.status === 429 || (res.status >= 200 && res.status < 300), `status ${res.status}`));
      const syntax = problemMessages(reading, ['absent', 'syntax']);
      const windows = problemMessages(reading, ['windows']);
      out.push(ok(CHECK.syntax, syntax.length === 0, syntax.join('; ')));
      out.push(ok(CHECK.windows, windows.length === 0, windows.join('; ')));
      if (!complete(reading)) continue;
      if (!baseline) baseline = reading.policy;
      for (const w of RATE_WINDOWS) {
        const { r, t } = reading.limit[w];
        const { q, w: len } = reading.policy[w];
        const base = baseline[w];
        out.push(ok(CHECK.policyConstant, q === base.q && len === base.w, `${w}: q=${q};w=${len}, first seen q=${base.q};w=${base.w}`));
        out.push(ok(CHECK.windowLength, len === RATE_WINDOW_SECONDS[w], `${w}: w=${len}`));
        out.push(ok(CHECK.rBounds, r >= 0 && r <= q, `${w}: r=${r}, q=${q}`));
        out.push(ok(CHECK.tBounds, t >= 0 && t <= len, `${w}: t=${t}, w=${len}`));
      }
      if (res.status === 429) out.push(...refusal(res, reading.limit));
    }
    const midMs = (startMs + endMs) / 2;
    const spanMs = endMs - startMs;
    const timed = responses.every((r) => r.atMs !== undefined);
    for (const w of RATE_WINDOWS) {
      const lenMs = RATE_WINDOW_SECONDS[w] * 1000;
      // Untimed answers of a batch longer than a quarter window cannot be placed in one instance: skip, never guess.
      if (!timed && spanMs >= lenMs / 4) { delete instances[w]; continue; }
      const points: Point[] = [];
      readings.forEach(({ res, reading }, index) => {
        const m = reading.limit[w];
        if (m) points.push({ index, r: m.r, t: m.t, resetV: (res.atMs ?? midMs) + m.t * 1000, admitted: res.status >= 200 && res.status < 300 });
      });
      out.push(...windowChecks(w, points, lenMs, readings.map((x) => x.reading.limit[w]?.r === 0 && x.res.status === 429)));
    }
    return out;
  }

  function refusal(res: Observed, limit: Record<RateWindow, { r: number; t: number }>): Outcome[] {
    const exhausted = RATE_WINDOWS.filter((w) => limit[w].r === 0);
    const detail = detailOf(res.body) ?? '';
    const named = exhausted.filter((w) => new RegExp(`\\b${w}\\b`, 'i').test(detail));
    const raw = headerValue(res.headers, 'Retry-After');
    const retryAfter = raw !== undefined && /^[0-9]+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
    const window = named[0] ?? exhausted.slice().sort((a, b) => limit[b].t - limit[a].t)[0];
    const type = (headerValue(res.headers, 'Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    return [
      ok(CHECK.refusedWhenExhausted, exhausted.length > 0, `429 while r=${RATE_WINDOWS.map((w) => `${w}:${limit[w].r}`).join(',')}`),
      ok(CHECK.detailNamesWindow, named.length > 0, `detail ${JSON.stringify(detail)}; exhausted: ${exhausted.join(',') || 'none'}`),
      ok(CHECK.retryAfter, retryAfter !== undefined && window !== undefined && retryAfter >= limit[window].t,
        `Retry-After ${JSON.stringify(raw)}; ${window ? `${window} t=${limit[window].t}` : 'no exhausted window'}`),
      ok(CHECK.problemJson, type === 'application/problem+json', `content type ${JSON.stringify(type)}`),
    ];
  }

  function windowChecks(w: RateWindow, points: Point[], lenMs: number, refusedHere: boolean[]): Outcome[] {
    const out: Outcome[] = [];
    points.sort((a, b) => a.resetV - b.resetV);
    const clusters: Point[][] = [];
    for (const p of points) {
      const last = clusters[clusters.length - 1];
      if (last && p.resetV - last[last.length - 1]!.resetV < lenMs / 2) last.push(p);
      else clusters.push([p]);
    }
    for (const cluster of clusters) {
      const resetV = cluster[0]!.resetV;
      const prev = instances[w];
      const continuing = prev !== undefined && Math.abs(prev.resetV - resetV) < lenMs / 2;
      const inst: Instance = continuing ? prev : { resetV, lastR: Number.POSITIVE_INFINITY, admitted: new Set() };
      const maxR = Math.max(...cluster.map((p) => p.r));
      if (continuing) out.push(ok(CHECK.rFalls, maxR <= inst.lastR, `${w}: r=${maxR} after r=${inst.lastR} in the same window`));
      const dup: number[] = [];
      for (const p of cluster.filter((x) => x.admitted)) {
        if (inst.admitted.has(p.r)) dup.push(p.r);
        inst.admitted.add(p.r);
      }
      if (cluster.some((p) => p.admitted)) out.push(ok(CHECK.rDistinct, dup.length === 0, `${w}: admitted requests shared r=${dup.join(',')}`));
      if (o.ownAccount && cluster.some((p) => refusedHere[p.index]) && inst.admitted.size > 0) {
        out.push(ok(CHECK.exact, inst.admitted.has(0), `${w}: refused, but the lowest r admitted was ${Math.min(...inst.admitted)}`));
      }
      inst.lastR = Math.min(inst.lastR, ...cluster.map((p) => p.r));
      inst.resetV = continuing ? inst.resetV : resetV;
      instances[w] = inst;
    }
    return out;
  }

  const remaining = (w: RateWindow): number | undefined => {
    const lastR = instances[w]?.lastR;
    return lastR === undefined || lastR === Number.POSITIVE_INFINITY ? undefined : lastR;
  };

  return { observeBatch, remaining };
}
