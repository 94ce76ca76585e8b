import type { ApiResult } from '../../lib/client/api.js';
import { readRateLimit, type RateLimitReading } from '../../lib/iso/rate-limit-fields.js';
import { RATE_WINDOW_SECONDS, RATE_WINDOWS } from '../../lib/iso/spec-constants.js';
import type { Finding } from '../support/rules.js';

export const RATE_RULES = {
  limitMembers: 'RATE.RATELIMIT.MEMBERS',
  policyMembers: 'RATE.POLICY.MEMBERS',
  windows: 'RATE.WINDOWS',
  windowLengths: 'RATE.POLICY.WINDOW_LENGTHS',
  bounds: 'RATE.RATELIMIT.BOUNDS',
  onSuccess: 'RATE.HEADERS.ON_SUCCESS',
  retryAfterInteger: 'RATE.429.RETRY_AFTER_INTEGER',
  retryAfterWindow: 'RATE.429.RETRY_AFTER_WINDOW',
  detail: 'RATE.429.DETAIL_NAMES_WINDOW',
  headersOn429: 'RATE.429.HEADERS',
} as const;

/**
 * `RateLimit` and `RateLimit-Policy` are RFC 9651 Lists with one member per window, a String or a Token
 * (`"minute"`, `"hour"`, `"day"`) carrying `r`/`t` and `q`/`w` (spec, Limits), parsed with
 * lib/iso/rate-limit-fields.ts (tested against the structured-headers library); `w` is the window's length, `0 <= r <= q`, `0 <= t <= w`.
 * `absentRule` is the rule a missing header breaks (on successes, on 429s).
 */
export function rateLimitHeadersConformance(res: ApiResult, absentRule: string = RATE_RULES.onSuccess): { findings: Finding[]; snapshot: RateLimitReading } {
  const where = `${res.operation} → ${res.status}`;
  const snapshot = readRateLimit(res.headers);
  const { problems } = snapshot;
  const findings: Finding[] = problems.map((p) => ({
    rule: p.kind === 'absent' ? absentRule : p.kind === 'windows' ? RATE_RULES.windows : p.header === 'ratelimit' ? RATE_RULES.limitMembers : RATE_RULES.policyMembers,
    message: `${where}: ${p.message}`,
  }));
  for (const w of RATE_WINDOWS) {
    const l = snapshot.limit[w];
    const p = snapshot.policy[w];
    if (p && p.w !== RATE_WINDOW_SECONDS[w]) findings.push({ rule: RATE_RULES.windowLengths, message: `${where}: "${w}" has w=${p.w}, the ${w} window is ${RATE_WINDOW_SECONDS[w]} s` });
    if (p && p.q < 0) findings.push({ rule: RATE_RULES.bounds, message: `${where}: "${w}" quota q=${p.q} is negative` });
    if (!l || !p) continue;
    if (l.r < 0 || l.r > p.q) findings.push({ rule: RATE_RULES.bounds, message: `${where}: "${w}" has r=${l.r}, outside 0..q=${p.q}` });
    if (l.t < 0 || l.t > p.w) findings.push({ rule: RATE_RULES.bounds, message: `${where}: "${w}" resets in t=${l.t}s, outside 0..w=${p.w}` });
  }
  return { findings, snapshot };
}

/**
 * A 429 carries `Retry-After` (integer seconds, the wait for the exceeded window, so not
 * earlier than that window's `t`), both rate-limit headers, and a `detail` naming the window.
 */
export function tooManyRequestsConformance(res: ApiResult): Finding[] {
  const where = `${res.operation} → ${res.status}`;
  const { findings, snapshot } = rateLimitHeadersConformance(res, RATE_RULES.headersOn429);
  const retryAfter = res.headers['retry-after'];
  const exhausted = RATE_WINDOWS.filter((w) => snapshot.limit[w]?.r === 0);
  if (retryAfter === undefined || !/^\d+$/.test(retryAfter.trim())) {
    findings.push({ rule: RATE_RULES.retryAfterInteger, message: `${where}: Retry-After must be an integer number of seconds, got ${JSON.stringify(retryAfter)}` });
  } else if (exhausted.length > 0) {
    const resets = exhausted.map((w) => snapshot.limit[w]!.t);
    if (Number(retryAfter) < Math.min(...resets)) {
      findings.push({ rule: RATE_RULES.retryAfterWindow, message: `${where}: Retry-After ${retryAfter}s is earlier than the exhausted window's reset (${exhausted.map((w) => `${w} t=${snapshot.limit[w]!.t}`).join(', ')})` });
    }
  }
  const detail = (res.body as { detail?: unknown } | undefined)?.detail;
  const named = typeof detail === 'string' ? RATE_WINDOWS.filter((w) => new RegExp(`\\b${w}\\b`, 'i').test(detail)) : [];
  if (named.length === 0) findings.push({ rule: RATE_RULES.detail, message: `${where}: detail does not name the exceeded window: ${JSON.stringify(detail)}` });
  else if (exhausted.length > 0 && !named.some((w) => exhausted.includes(w))) {
    findings.push({ rule: RATE_RULES.detail, message: `${where}: detail names ${named.join(', ')} but the exhausted window is ${exhausted.join(', ')}` });
  }
  return findings;
}
