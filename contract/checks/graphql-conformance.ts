import type { ApiResult } from '../../lib/client/api.js';
import { formatIssues, validate } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';

/** Rules every GraphQL answer is held to (spec, GraphQL and Errors). */
export const GQL_RULES = {
  shape: 'GQL.HTTP.RESULT_SHAPE',
  signalled: 'GQL.ERRORS.FAILURE_SIGNALLED',
  noResult: 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP',
  badDocument: 'GQL.HTTP.BAD_DOCUMENT_REFUSED',
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

/** Whether an answer signals a failure: a non-2xx status or a non-empty `errors` array. */
export function failureSignalled(res: ApiResult): boolean {
  const errors = bodyOf(res)?.errors;
  return res.status < 200 || res.status >= 300 || (Array.isArray(errors) && errors.length > 0);
}

/** Whether the operation ran: the answer's `data` holds a member for it (its result or null). */
export function executed(res: ApiResult, operation: string): boolean {
  const data = bodyOf(res)?.data;
  return typeof data === 'object' && data !== null && Object.hasOwn(data, operation);
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

/** Operations whose success answers null: a null answer alone does not say whether they failed. */
const NULL_RESULT_OPERATIONS: ReadonlySet<string> = new Set(['deleteEndpoint', 'deleteTemplate', 'secretDelete']);

/** What the caller knows about a request that must fail, beyond its answer. */
export interface FailureContext {
  /**
   * The document breaks the spec's GraphQL schema (a required input field missing, an enum
   * written as a string, a field the result does not have): a 5xx answer breaks
   * GQL.HTTP.BAD_DOCUMENT_REFUSED ("refused without a 5xx"), not the caller's rule.
   */
  invalidDocument?: boolean;
  /**
   * For an operation whose success answers null (the deletes): whether the caller saw it take
   * effect. A 2xx null answer without errors is then a success (effect) or a failure that was
   * not signalled (no effect); unknown, it reads as a success.
   */
  effect?: boolean;
}

/**
 * A GraphQL operation that must fail (spec, Errors: the format is "not shown"). The answer is
 * read as a failure when it is signalled (a non-2xx status or a non-empty `errors` array):
 * then it must carry no result for the operation (NO_RESULT). An answer that signals nothing
 * and carries a result is a success, which breaks `rule` (the rule that says the operation
 * fails) and only it; one that signals nothing and carries no result is a failure that was not
 * signalled (FAILURE_SIGNALLED), except for the deletes, whose success is null: for them the
 * caller's `effect` decides. A 5xx breaks `rule`, or BAD_DOCUMENT_REFUSED for an invalid
 * document. Whether a failed operation still had an effect is for the caller to check.
 */
export function graphqlFailureConformance(res: ApiResult, operation: string, rule: string, context: FailureContext = {}): Finding[] {
  const findings: Finding[] = [];
  const body = bodyOf(res);
  if (res.status >= 500) {
    findings.push({ rule: context.invalidDocument ? GQL_RULES.badDocument : rule, message: `${where(res, operation)}: a refusal must not be a server error: ${res.text.slice(0, 200)}` });
  }
  const signalled = failureSignalled(res);
  const data = body?.data;
  const result = typeof data === 'object' && data !== null ? data[operation] : undefined;
  const hasResult = result !== undefined && result !== null;
  if (signalled) {
    if (hasResult) findings.push({ rule: GQL_RULES.noResult, message: `${where(res, operation)}: the failure is signalled, but the operation returned a result: ${JSON.stringify(result).slice(0, 200)}` });
    return findings;
  }
  if (hasResult) {
    findings.push({ rule, message: `${where(res, operation)}: the operation should have failed, but it succeeded (a result, no errors): ${JSON.stringify(result).slice(0, 200)}` });
  } else if (NULL_RESULT_OPERATIONS.has(operation) && context.effect !== false) {
    findings.push({ rule, message: `${where(res, operation)}: the operation should have failed, but it answered as a success (null, no errors)${context.effect ? ' and took effect' : ''}: ${res.text.slice(0, 200)}` });
  } else {
    const why = NULL_RESULT_OPERATIONS.has(operation) ? 'it had no effect, yet the answer' : 'it returned no result, yet the answer';
    findings.push({ rule: GQL_RULES.signalled, message: `${where(res, operation)}: the operation failed (${why} signals no failure: no errors array, status ${res.status}): ${res.text.slice(0, 200)}` });
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
 * non-empty `errors` array, and it is never a 5xx. Every finding is `rule`'s, but a 5xx to an
 * invalid document, which is BAD_DOCUMENT_REFUSED's.
 */
export function graphqlRefusalConformance(res: ApiResult, rule: string, label: string, context: Pick<FailureContext, 'invalidDocument'> = {}): Finding[] {
  const body = bodyOf(res);
  const findings: Finding[] = [];
  if (res.status >= 500) findings.push({ rule: context.invalidDocument ? GQL_RULES.badDocument : rule, message: `${label} → ${res.status}: a refusal must not be a server error: ${res.text.slice(0, 200)}` });
  const errors = body?.errors;
  if (res.status < 500 && !(res.status >= 400) && !(Array.isArray(errors) && errors.length > 0)) {
    findings.push({ rule, message: `${label} → ${res.status}: not refused (no 4xx, no errors array): ${res.text.slice(0, 200)}` });
  }
  const results = Object.entries(body?.data ?? {}).filter(([, v]) => v !== null && v !== undefined);
  if (results.length > 0) findings.push({ rule, message: `${label} → ${res.status}: the refused request returned ${results.map(([k]) => `data.${k}`).join(', ')}: ${res.text.slice(0, 200)}` });
  return findings;
}
