import type { ApiResult } from '../../lib/client/api.js';
import type { JobStatus } from '../../lib/types.gen.js';
import { validate, type ValidationIssue } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';
import { readFrom } from '../../lib/errors.js';
import { isSuccess } from './status.js';

export const JOB_RULES = {
  json: 'JOB.HTTP.JSON',
  id: 'JOB.OBJECT.ID',
  status: 'JOB.OBJECT.STATUS_VALUES',
  times: 'JOB.OBJECT.TIMES_ON_COMPLETED',
} as const;

/**
 * The `output` of a COMPLETED plain job (no `stream`, no `outputBytes`), emulator/serverless/HANDLER.md: the list of
 * what the handler yielded, and a plain job yields its input once.
 */
export const plainOutput = (input: Record<string, unknown>): unknown[] => [input];

/** Spec, Serverless job operations: "Bodies and responses are JSON." */
export function jobJsonConformance(res: ApiResult): Finding[] {
  const json = res.contentType === 'application/json' || res.contentType.endsWith('+json');
  if (json && res.body !== undefined) return [];
  return [{ rule: JOB_RULES.json, message: `${res.operation} → ${res.status}: the body is not JSON (${res.contentType || 'no content type'}): ${res.text.slice(0, 120) || '(empty)'}`, exchange: res }];
}

/** Which rule a schemas/job.schema.json issue breaks. */
function ruleOf(issue: ValidationIssue): string {
  if (issue.path === '/id') return JOB_RULES.id;
  if (issue.path === '/delayTime' || issue.path === '/executionTime') return JOB_RULES.times;
  if (issue.path === '/status') return JOB_RULES.status;
  return JOB_RULES.id;
}

/**
 * A job object in a success answer (`/runsync`, `/status`, `/status-sync`): JSON; `id` a string; `status` one of
 * the six; a COMPLETED job carries integer `delayTime` and `executionTime`. Each failure is
 * attributed to the rule it breaks.
 */
export function jobObjectConformance(res: ApiResult): Finding[] {
  // Only a success carries a job object; tests hold the status itself to their own rule.
  if (res.status < 200 || res.status >= 300) return [];
  const findings = jobJsonConformance(res);
  if (findings.length) return findings;
  const result = validate('job', res.body);
  if (result.valid) return [];
  // The schema's `if COMPLETED then required` also reports an `if` issue; the `required` one names the field.
  return readFrom(res, result.issues
    .filter((i) => i.keyword !== 'if')
    .map((i) => ({ rule: ruleOf(i), message: `${res.operation} → ${res.status}: ${i.path || '(root)'} ${i.message} in ${res.text.slice(0, 200)}` })));
}

/**
 * `{id, status}` (the answer of `/run`, `/cancel`, `/retry`): a job object whose status is
 * the one the operation names, attributed to `rule`; `id` the expected one when given. A wrong
 * id breaks `idRule` (for /retry, JOB.STATE.RETRY_SAME_ID), so a target that changes the id
 * fails that rule, not every rule of the tests that read a retry's answer.
 */
export function jobHandleConformance(rule: string, res: ApiResult, status: JobStatus, id?: string, idRule: string = rule): Finding[] {
  if (res.status < 200 || res.status >= 300) return [{ rule, message: `${res.operation}: expected a 2xx {id, status: ${status}}, got ${res.status} (${res.text.slice(0, 200)})`, exchange: res }];
  const findings = jobObjectConformance(res);
  if (jobJsonConformance(res).length) return findings;
  const body = res.body as { id?: unknown; status?: unknown };
  if (body.status !== status) findings.push({ rule, message: `${res.operation}: status is ${JSON.stringify(body.status)}, not ${status}` });
  if (id !== undefined && body.id !== id) findings.push({ rule: idRule, message: `${res.operation}: id is ${JSON.stringify(body.id)}, not the job's ${id}` });
  return readFrom(res, findings);
}

/** The job status an answer shows, for a message: never an empty value ("no job status (404)" when it shows none). */
export const statusText = (res: ApiResult): string => statusOf(res) ?? `no job status (answered ${res.status})`;

/** The job status of a /status answer (any 2xx: the spec shows no success status for job operations), or undefined when there is no job object. */
export const statusOf = (res: ApiResult): JobStatus | undefined =>
  isSuccess(res) ? (res.body as { status?: JobStatus } | undefined)?.status : undefined;
