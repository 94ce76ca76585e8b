import type { FaultDef } from '../faults.js';

/** Cross-cutting faults: authentication, problem+json, rate limiting, routing. */
export const coreFaults = {
  'auth.missing-key-accepted': { rule: 'AUTH.REST_V2.MISSING_401', description: 'REST v2 answers a request without a key as if it had the seeded key.' },
  'auth.readonly-can-write': { rule: 'AUTH.REST_V2.FORBIDDEN_403', description: 'A key without write access may create pods.' },
  'auth.401-as-403': { rule: 'AUTH.REST_V2.MISSING_401', description: 'A missing key answers 403 instead of 401.' },
  'problem.plain-json': { rule: 'ERR.PROBLEM_JSON.CONTENT_TYPE', description: 'Errors are served as application/json instead of application/problem+json.' },
  'problem.no-detail': { rule: 'ERR.PROBLEM_JSON.DETAIL_REQUIRED', description: 'Problem bodies omit `detail`.' },
  'problem.status-mismatch': { rule: 'ERR.PROBLEM_JSON.STATUS_MATCHES', description: 'The problem body `status` differs from the HTTP status.' },
  'ratelimit.no-retry-after': { rule: 'RATE.429.RETRY_AFTER', description: '429 responses carry no Retry-After header.' },
  'ratelimit.policy-token-items': { rule: 'RATE.HEADERS.POLICY_SYNTAX', description: 'RateLimit-Policy names windows as tokens with a wrong window length.' },
  'ratelimit.never-429': { rule: 'RATE.429.WHEN_EXHAUSTED', description: 'An exhausted window is never enforced.' },
  'ratelimit.no-headers-on-success': { rule: 'RATE.HEADERS.ON_SUCCESS', description: 'Successful responses carry no RateLimit headers.' },
  'routes.unknown-200': { rule: 'HTTP.UNKNOWN_ROUTE_404', description: 'Unknown routes answer 200 with an empty object.' },
} as const satisfies Record<string, FaultDef>;
