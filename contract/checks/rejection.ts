import type { ApiResult } from '../../lib/client/api.js';
import type { Finding } from '../support/rules.js';
import { problemJsonConformance } from './problem-json.js';
import { statusCodeConformance, type ExpectedStatus } from './status.js';

/**
 * A request the spec says must be refused: the expected status (a number, a list such as
 * `[400, 422]`, or `'client-error'` for "some 4xx" where the spec says "not shown"), never 2xx
 * or 5xx, with an `application/problem+json` body. The rule itself fails when the body is not
 * problem+json (the rules say "with an application/problem+json body"), and the problem rules
 * of the Errors section are checked as well.
 */
export function rejectionConformance(rule: string, res: ApiResult, expected: ExpectedStatus): Finding[] {
  const findings = [...statusCodeConformance(rule, res, expected)];
  if (res.status < 400 || res.status >= 500) return findings;
  if (res.contentType !== 'application/problem+json') {
    findings.push({ rule, message: `${res.operation} → ${res.status}: the refusal is "${res.contentType || 'no content type'}", not application/problem+json` });
  }
  return [...findings, ...problemJsonConformance(res)];
}
