import type { FaultDef } from '../switches.js';

/** Cross-cutting faults: REST v2 authentication, problem+json, rate limiting, body parsing. */
export const coreFaults = {
  'auth.missing-key-accepted': { rule: 'AUTH.REST_V2.MISSING_401', description: 'REST v2 serves a request without a key as the world\'s first key.' },
  'auth.malformed-accepted': { rule: 'AUTH.REST_V2.MALFORMED_401', description: 'REST v2 takes an Authorization header without the Bearer scheme as the key itself.' },
  'auth.invalid-as-403': { rule: 'AUTH.REST_V2.INVALID_401', description: 'REST v2 answers an unknown key with 403 instead of 401.' },
  'auth.expired-accepted': { rule: 'AUTH.REST_V2.EXPIRED_401', description: 'REST v2 accepts expired keys.' },
  'auth.readonly-can-write': { rule: 'AUTH.REST_V2.FORBIDDEN_403', description: 'A key without write access may write on REST v2.' },
  'problem.plain-json': { rule: 'ERR.REST_V2.PROBLEM_JSON', description: 'Errors are served as application/json instead of application/problem+json.' },
  'problem.no-title': { rule: 'ERR.REST_V2.TITLE', description: 'Problem bodies omit `title`.' },
  'problem.no-detail': { rule: 'ERR.REST_V2.DETAIL', description: 'Problem bodies omit `detail`.' },
  'problem.status-mismatch': { rule: 'ERR.REST_V2.STATUS', description: 'The problem body `status` differs from the HTTP status.' },
  'problem.errors-objects': { rule: 'ERR.REST_V2.ERRORS_ARRAY', description: '`errors[]` holds objects instead of strings.' },
  'body.malformed-json-422': { rule: 'ERR.CREATE_POD.400_MALFORMED', description: 'A body that is not JSON answers 422 instead of 400.' },
  'ratelimit.never-429': { rule: 'RATE.429.ON_EXCEEDED', description: 'An exhausted window is never enforced.' },
  'ratelimit.no-retry-after': { rule: 'RATE.429.RETRY_AFTER_INTEGER', description: '429 answers carry no Retry-After header.' },
  'ratelimit.retry-after-early': { rule: 'RATE.429.RETRY_AFTER_WINDOW', description: 'Retry-After says 1 second whatever the exhausted window\'s reset.' },
  'ratelimit.no-headers-on-429': { rule: 'RATE.429.HEADERS', description: '429 answers carry no RateLimit or RateLimit-Policy header.' },
  'ratelimit.vague-detail': { rule: 'RATE.429.DETAIL_NAMES_WINDOW', description: 'The 429 detail does not name the exceeded window.' },
  'ratelimit.no-headers-on-success': { rule: 'RATE.HEADERS.ON_SUCCESS', description: 'Successful answers carry no rate-limit headers.' },
  'ratelimit.policy-string-quota': { rule: 'RATE.POLICY.MEMBERS', description: 'RateLimit-Policy carries the quota q as a String ("60") instead of an Integer.' },
  'ratelimit.limit-float-params': { rule: 'RATE.RATELIMIT.MEMBERS', description: 'RateLimit carries r as a Decimal (59.0) instead of an Integer.' },
  'ratelimit.policy-wrong-window': { rule: 'RATE.POLICY.WINDOW_LENGTHS', description: 'RateLimit-Policy doubles every window length w.' },
  'ratelimit.no-day-window': { rule: 'RATE.WINDOWS', description: 'Both headers omit the day window.' },
  'ratelimit.reset-beyond-window': { rule: 'RATE.RATELIMIT.BOUNDS', description: 'RateLimit t counts to the end of the next window (t > w).' },
  'ratelimit.shared-across-users': { rule: 'RATE.PER_USER', description: 'All accounts of a world share one set of counters.' },
} as const satisfies Record<string, FaultDef>;

declare module '../switches.js' {
  // Adds this table's ids to the fault ids a world knows (switches.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds members
  interface FaultRegistry extends Record<keyof typeof coreFaults, FaultDef> {}
}
