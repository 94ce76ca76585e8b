import type { ApiResult } from '../../lib/client/api.js';
import { readRateLimit, RATE_WINDOWS, type RateLimitSnapshot } from '../../lib/rate-limit-headers.js';
import type { Finding } from '../support/rules.js';

export const RATE_RULES = {
  syntax: 'RATE.HEADERS.SYNTAX',
  policySyntax: 'RATE.HEADERS.POLICY_SYNTAX',
  onSuccess: 'RATE.HEADERS.ON_SUCCESS',
  retryAfter: 'RATE.429.RETRY_AFTER',
  detail: 'RATE.429.DETAIL_NAMES_WINDOW',
  headersOn429: 'RATE.429.HEADERS',
} as const;

/**
 * `RateLimit` and `RateLimit-Policy` are RFC 9651 Lists with one String member per window
 * (`"minute"`, `"hour"`, `"day"`) carrying `r`/`t` and `q`/`w` (spec, Limits), parsed with
 * the structured-headers library; `t` never exceeds `w` and `r` never exceeds `q`.
 */
export function rateLimitHeadersConformance(res: ApiResult, rule: string = RATE_RULES.syntax): { findings: Finding[]; snapshot: RateLimitSnapshot } {
  const findings: Finding[] = [];
  const where = `${res.operation} → ${res.status}`;
  for (const h of ['ratelimit', 'ratelimit-policy']) {
    if (res.headers[h] === undefined) findings.push({ rule, message: `${where}: no ${h} header` });
  }
  if (findings.length) return { findings, snapshot: { limit: {}, policy: {} } };
  const { snapshot, problems } = readRateLimit(res.headers);
  for (const p of problems) findings.push({ rule: p.startsWith('ratelimit-policy') ? RATE_RULES.policySyntax : rule, message: `${where}: ${p}` });
  for (const w of RATE_WINDOWS) {
    const l = snapshot.limit[w];
    const p = snapshot.policy[w];
    if (!l || !p) continue;
    if (l.t > p.w) findings.push({ rule, message: `${where}: "${w}" resets in t=${l.t}s, longer than its window w=${p.w}s` });
    if (l.r > p.q) findings.push({ rule, message: `${where}: "${w}" has r=${l.r} remaining, more than its quota q=${p.q}` });
  }
  return { findings, snapshot };
}

/**
 * A 429 carries `Retry-After` (integer seconds, for the exceeded window, not earlier than that
 * window's reset), both rate-limit headers, and a `detail` naming the exceeded window.
 */
export function tooManyRequestsConformance(res: ApiResult): Finding[] {
  const findings: Finding[] = [];
  const where = `${res.operation} → ${res.status}`;
  const retryAfter = res.headers['retry-after'];
  const { findings: headerFindings, snapshot } = rateLimitHeadersConformance(res, RATE_RULES.headersOn429);
  findings.push(...headerFindings);
  const exhausted = RATE_WINDOWS.filter((w) => snapshot.limit[w]?.r === 0);
  if (retryAfter === undefined || !/^\d+$/.test(retryAfter.trim())) {
    findings.push({ rule: RATE_RULES.retryAfter, message: `${where}: Retry-After must be an integer number of seconds, got ${JSON.stringify(retryAfter)}` });
  } else if (exhausted.length > 0) {
    const resets = exhausted.map((w) => snapshot.limit[w]!.t);
    if (Number(retryAfter) < Math.min(...resets)) {
      findings.push({ rule: RATE_RULES.retryAfter, message: `${where}: Retry-After ${retryAfter}s is earlier than the exhausted window's reset (${exhausted.map((w) => `${w} t=${snapshot.limit[w]!.t}`).join(', ')})` });
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
