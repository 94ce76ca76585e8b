import type { ApiResult } from '../../lib/client/api.js';
import { formatIssues, validate } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';

/** Rules every GraphQL answer is held to (spec, GraphQL and Errors). */
export const GQL_RULES = {
  shape: 'GQL.HTTP.RESULT_SHAPE',
  signalled: 'GQL.ERRORS.FAILURE_SIGNALLED',
  noResult: 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP',
} as const;

interface GqlBody { data?: Record<string, unknown> | null; errors?: { message?: unknown }[] }

const bodyOf = (res: ApiResult): GqlBody | undefined =>
  (typeof res.body === 'object' && res.body !== null && !Array.isArray(res.body) ? res.body as GqlBody : undefined);

/** The error messages of an answer, for findings (never more than 300 characters). */
export function errorSummary(res: ApiResult): string {
  const errors = bodyOf(res)?.errors;
  const text = Array.isArray(errors) ? errors.map((e) => String(e?.message)).join(' | ') : res.text;
  return text.slice(0, 300);
}

const where = (res: ApiResult, operation: string): string => `${operation} → ${res.status}`;

/**
 * A GraphQL operation that must succeed: a 2xx JSON answer `{data: {<operation>: <result>}}`
 * (spec: "Results are returned as `{data: {<operation>: <result>}}`") without errors. A
 * refusal is a finding of `rule` (the rule that says the operation succeeds); a result not
 * keyed by the operation, or a body that breaks graphql-response.schema.json, of RESULT_SHAPE.
 * `value` is `data[operation]` when the shape holds.
 */
export function graphqlConformance<T = unknown>(res: ApiResult, operation: string, rule: string): { findings: Finding[]; value: T | undefined } {
  const findings: Finding[] = [];
  const body = bodyOf(res);
  if (res.status < 200 || res.status >= 300) {
    findings.push({ rule, message: `${where(res, operation)}: the operation was refused: ${errorSummary(res)}` });
    return { findings, value: undefined };
  }
  if (!body) {
    findings.push({ rule: GQL_RULES.shape, message: `${where(res, operation)}: the body is not a JSON object (${res.contentType || 'no content type'}): ${res.text.slice(0, 200)}` });
    return { findings, value: undefined };
  }
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    findings.push({ rule, message: `${where(res, operation)}: the operation failed: ${errorSummary(res)}` });
  }
  const shape = validate('graphql-response', body);
  if (!shape.valid) findings.push({ rule: GQL_RULES.shape, message: `${where(res, operation)}: not a GraphQL response:\n${formatIssues(shape.issues)}` });
  const data = body.data;
  if (typeof data !== 'object' || data === null || !Object.hasOwn(data, operation)) {
    findings.push({ rule: GQL_RULES.shape, message: `${where(res, operation)}: the result is not under data.${operation}: ${res.text.slice(0, 200)}` });
    return { findings, value: undefined };
  }
  return { findings, value: data[operation] as T };
}

/**
 * A GraphQL operation that must fail (spec, Errors: the format is "not shown"): the failure is
 * signalled by a non-2xx status or a non-empty `errors` array (FAILURE_SIGNALLED), never with a
 * 5xx, and the operation gets no result: `data.<operation>` null or absent (NO_RESULT). `rule`,
 * the rule that says the operation fails, fails too when the operation returned a result or
 * answered 5xx. Whether it had an effect is for the caller to check.
 */
export function graphqlFailureConformance(res: ApiResult, operation: string, rule: string): Finding[] {
  const findings: Finding[] = [];
  const body = bodyOf(res);
  if (res.status >= 500) {
    findings.push({ rule, message: `${where(res, operation)}: a refusal must not be a server error: ${res.text.slice(0, 200)}` });
  }
  const refusedByStatus = res.status < 200 || res.status >= 300;
  const errors = body?.errors;
  if (!refusedByStatus && !(Array.isArray(errors) && errors.length > 0)) {
    findings.push({ rule: GQL_RULES.signalled, message: `${where(res, operation)}: the operation should have failed, but the answer signals no failure (no errors array): ${res.text.slice(0, 200)}` });
  }
  const result = body?.data?.[operation];
  if (result !== undefined && result !== null) {
    const message = `${where(res, operation)}: the operation should have failed, but it returned a result: ${JSON.stringify(result).slice(0, 200)}`;
    findings.push({ rule: GQL_RULES.noResult, message }, { rule, message });
  }
  return findings;
}

/** How a GraphQL failure looked (status, content type, error shape), for GQL.ERRORS.FORMAT. */
export function failureFormat(res: ApiResult, operation: string): Record<string, unknown> {
  const body = bodyOf(res);
  const errors = Array.isArray(body?.errors) ? body.errors : undefined;
  return {
    operation,
    status: res.status,
    contentType: res.contentType,
    errorsArray: errors !== undefined,
    everyErrorHasMessage: errors?.every((e) => typeof e?.message === 'string') ?? false,
    dataForOperation: body?.data === undefined ? 'absent' : body.data === null ? 'data null' : body.data[operation] === null ? 'null' : 'present',
  };
}

/**
 * A request that must be refused as a whole (authentication, authorisation, a document the
 * schema rejects): no field of `data` holds a result, the refusal is signalled by a 4xx or a
 * non-empty `errors` array, and it is never a 5xx. Every finding is `rule`'s.
 */
export function graphqlRefusalConformance(res: ApiResult, rule: string, label: string): Finding[] {
  const body = bodyOf(res);
  const findings: Finding[] = [];
  if (res.status >= 500) findings.push({ rule, message: `${label} → ${res.status}: a refusal must not be a server error: ${res.text.slice(0, 200)}` });
  const errors = body?.errors;
  if (!(res.status >= 400 && res.status < 500) && !(Array.isArray(errors) && errors.length > 0)) {
    findings.push({ rule, message: `${label} → ${res.status}: not refused (no 4xx, no errors array): ${res.text.slice(0, 200)}` });
  }
  const results = Object.entries(body?.data ?? {}).filter(([, v]) => v !== null && v !== undefined);
  if (results.length > 0) findings.push({ rule, message: `${label} → ${res.status}: the refused request returned ${results.map(([k]) => `data.${k}`).join(', ')}: ${res.text.slice(0, 200)}` });
  return findings;
}
