import type { ApiResult } from '../../lib/client/api.js';
import type { Finding } from '../support/rules.js';
import { problemJsonConformance } from './problem-json.js';
import { statusCodeConformance, type ExpectedStatus } from './status.js';

/**
 * A request the spec says must be refused: the expected status (a number, a list such as
 * `[400, 422]`, or `'client-error'` for "some 4xx" where the spec says "not shown"), never 2xx
 * or 5xx, with an `application/problem+json` body. The status is the rule's own check; the
 * body is held to the problem rules of the Errors section, each breach attributed to its own
 * rule (a refusal sent as `application/json` fails ERR.REST_V2.PROBLEM_JSON, once, not every
 * rule whose test met a refusal).
 */
export function rejectionConformance(rule: string, res: ApiResult, expected: ExpectedStatus): Finding[] {
  const findings = statusCodeConformance(rule, res, expected);
  if (res.status < 400 || res.status >= 500) return findings;
  return [...findings, ...problemJsonConformance(res)];
}

/**
 * An error answer (4xx or 5xx) carries an error body: `rule` fails when it is empty. Checked on
 * error answers only: an accepted request fails the rule that says it is refused, not this
 * one; the body's media type and members are the problem rules' (problemJsonConformance).
 */
export function errorBodyConformance(rule: string, res: ApiResult): Finding[] {
  if (res.status < 400) return [];
  return res.text.trim().length > 0 ? [] : [{ rule, message: `${res.operation} → ${res.status}: the error answer has no body`, exchange: res }];
}
