import type { ApiResult } from '../../lib/client/api.js';
import { validate } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';
import { readFrom } from '../../lib/errors.js';

/** The rules a problem+json answer is held to on REST v2 (spec, Errors). */
export interface ProblemRules { contentType: string; title: string; status: string; detail: string; errors: string }

export const REST_V2_PROBLEM_RULES: ProblemRules = {
  contentType: 'ERR.REST_V2.PROBLEM_JSON',
  title: 'ERR.REST_V2.TITLE',
  status: 'ERR.REST_V2.STATUS',
  detail: 'ERR.REST_V2.DETAIL',
  errors: 'ERR.REST_V2.ERRORS_ARRAY',
};

const MEMBERS = ['title', 'status', 'detail', 'errors'] as const;

/** Which member of the problem body a schema issue is about. */
function memberOf(path: string, message: string): (typeof MEMBERS)[number] | undefined {
  const first = path.split('/')[1];
  const named = first ?? /["'](\w+)["']/.exec(message)?.[1];
  return MEMBERS.find((m) => m === named);
}

/**
 * An error answer is `application/problem+json` whose body conforms to `schemas/problem`
 * (`title`, `status`, `detail` required; `errors` an array of strings) and whose `status`
 * equals the HTTP status. Each breach is attributed to its own rule.
 */
export function problemJsonConformance(res: ApiResult, rules: ProblemRules = REST_V2_PROBLEM_RULES): Finding[] {
  const findings: Finding[] = [];
  const where = `${res.operation} → ${res.status}`;
  if (res.contentType !== 'application/problem+json') {
    findings.push({ rule: rules.contentType, message: `${where}: content type is "${res.headers['content-type'] ?? '(none)'}", not application/problem+json` });
  }
  const body = res.body as Record<string, unknown> | undefined;
  if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) {
    findings.push({ rule: rules.detail, message: `${where}: the error body is not a JSON object: ${JSON.stringify(res.text.slice(0, 200))}` });
    return readFrom(res, findings);
  }
  const result = validate('problem', body);
  if (!result.valid) {
    for (const issue of result.issues) {
      const member = memberOf(issue.path, issue.message) ?? 'detail';
      findings.push({ rule: rules[member], message: `${where}: ${issue.path || '(root)'}: ${issue.message}` });
    }
  }
  if (typeof body.status === 'number' && body.status !== res.status) {
    findings.push({ rule: rules.status, message: `${where}: body status ${body.status} differs from the HTTP status ${res.status}` });
  }
  return readFrom(res, findings);
}
