import { rateLimitHeaders, type WindowState } from '../rate-limit.js';
import type { RouteDef } from '../types.js';
import type { World } from '../world.js';
import { Refusal } from './outcome.js';
import { problem } from './reply.js';

/** The `RateLimit` and `RateLimit-Policy` headers of one answer. */
export type RateLimitHeaders = Record<string, string>;

/**
 * The rate-limit step: the request counts against its account's three windows (spec, Rate
 * limiting: "per user"; README #4 to #7). An exhausted window refuses it with 429, `Retry-After`
 * and a detail naming the window; otherwise the step returns the headers every authenticated
 * answer carries, or `undefined` when the world leaves them off.
 *
 * Faults: `ratelimit.shared-across-users`, `ratelimit.never-429`, `ratelimit.no-headers-on-429`,
 * `ratelimit.no-retry-after`, `ratelimit.retry-after-early`, `ratelimit.vague-detail`,
 * `ratelimit.no-headers-on-success` and those of {@link rateLimitHeadersFor}. Variant:
 * `ratelimit.rest-v2-only` (only REST v2 answers carry the headers; a 429 always does).
 */
export function rateLimit(world: World, accountId: string, route: RouteDef): RateLimitHeaders | undefined | Refusal {
  const decision = world.rateLimiter.check(world.fault('ratelimit.shared-across-users') ? '*' : accountId, world.clock.now());
  const headers = world.fault('ratelimit.no-headers-on-success') || (route.surface !== 'rest-v2' && world.variant('ratelimit.rest-v2-only')) ? undefined : rateLimitHeadersFor(decision.windows, world);
  if (decision.allowed || world.fault('ratelimit.never-429')) return headers;
  const h: Record<string, string | number> = world.fault('ratelimit.no-headers-on-429') ? {} : { ...rateLimitHeadersFor(decision.windows, world) };
  if (!world.fault('ratelimit.no-retry-after')) h['Retry-After'] = world.fault('ratelimit.retry-after-early') ? 1 : decision.exceeded.resetSeconds;
  const detail = world.fault('ratelimit.vague-detail') ? 'Too many requests; slow down.' : `rate limit exceeded for the ${decision.exceeded.name} window`;
  return new Refusal(problem('rate-limited', detail, undefined, h));
}

/**
 * The rate-limit headers, as the world's faults would have them: `ratelimit.no-day-window`,
 * `ratelimit.reset-beyond-window`, `ratelimit.policy-wrong-window`,
 * `ratelimit.policy-string-quota`, `ratelimit.limit-float-params`.
 */
function rateLimitHeadersFor(windows: readonly WindowState[], world: World): RateLimitHeaders {
  let shown = windows;
  if (world.fault('ratelimit.no-day-window')) shown = shown.filter((w) => w.name !== 'day');
  if (world.fault('ratelimit.reset-beyond-window')) shown = shown.map((w) => ({ ...w, resetSeconds: w.resetSeconds + w.seconds }));
  if (world.fault('ratelimit.policy-wrong-window')) shown = shown.map((w) => ({ ...w, seconds: w.seconds * 2 }));
  const headers: RateLimitHeaders = rateLimitHeaders(shown);
  if (world.fault('ratelimit.policy-string-quota')) headers['RateLimit-Policy'] = shown.map((w) => `"${w.name}";q="${w.quota}";w=${w.seconds}`).join(', ');
  if (world.fault('ratelimit.limit-float-params')) headers.RateLimit = shown.map((w) => `"${w.name}";r=${w.remaining}.0;t=${w.resetSeconds}`).join(', ');
  return headers;
}
