import type { ApiResult } from '../../lib/client/api.js';
import { validate, formatIssues } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';

/** Rules every problem+json answer is held to (spec, Errors). */
export const PROBLEM_RULES = {
  contentType: 'ERR.PROBLEM_JSON.CONTENT_TYPE',
  fields: 'ERR.PROBLEM_JSON.REQUIRED_FIELDS',
  status: 'ERR.PROBLEM_JSON.STATUS_MATCHES',
  errors: 'ERR.PROBLEM_JSON.ERRORS_ARRAY',
} as const;

/**
 * An error answer is `application/problem+json` with `title`, `status` (equal to the HTTP
 * status) and `detail`, and `errors` (if any) an array of strings.
 */
export function problemJsonConformance(res: ApiResult, rules: Partial<typeof PROBLEM_RULES> = {}): Finding[] {
  const r = { ...PROBLEM_RULES, ...rules };
  const findings: Finding[] = [];
  const where = `${res.operation} → ${res.status}`;
  if (res.contentType !== 'application/problem+json') {
    findings.push({ rule: r.contentType, message: `${where}: content type is "${res.headers['content-type'] ?? '(none)'}", not application/problem+json` });
  }
  const body = res.body as Record<string, unknown> | undefined;
  if (body === undefined || typeof body !== 'object' || body === null) {
    findings.push({ rule: r.fields, message: `${where}: body is not a JSON object: ${res.text.slice(0, 200)}` });
    return findings;
  }
  const result = validate('problem', body);
  if (!result.valid) {
    const errorsIssues = result.issues.filter((i) => i.path.startsWith('/errors'));
    const other = result.issues.filter((i) => !i.path.startsWith('/errors'));
    if (other.length) findings.push({ rule: r.fields, message: `${where}: problem body breaks the schema:\n${formatIssues(other)}` });
    if (errorsIssues.length) findings.push({ rule: r.errors, message: `${where}: errors[] must be an array of strings:\n${formatIssues(errorsIssues)}` });
  }
  if (typeof body.status === 'number' && body.status !== res.status) {
    findings.push({ rule: r.status, message: `${where}: body status ${body.status} differs from the HTTP status ${res.status}` });
  }
  return findings;
}
