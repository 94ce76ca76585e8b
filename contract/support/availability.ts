/**
 * Each spec'd operation's own rule: the one a missing operation fails (its route answers 404,
 * its method 405 or 501, or a page where the spec gives JSON; lib/client/absence.ts). Every other
 * rule a test reads from such an answer is blocked by it, naming the answer, never failed: a
 * target without /health fails HEALTH.RESPONSE, not the authentication rules that also call it.
 */
import type { OperationName } from '../../lib/client/operations.js';
import type { Finding } from '../../lib/errors.js';

/**
 * The rule that says each operation is served, by operationId: one per job operation the spec's
 * table lists ("Operation | Method and path | Request | Response"), and the surfaces' own
 * "served under" rules for REST v2, REST v1 and GraphQL.
 */
export const OWN_RULE: Partial<Record<OperationName, string>> = {
  listPods: 'HTTP.BASE_URL.REST_V2',
  createPod: 'HTTP.BASE_URL.REST_V2',
  runSync: 'JOB.RUNSYNC.SERVED',
  run: 'JOB.RUN.SERVED',
  getJobStatus: 'JOB.STATUS.SERVED',
  streamJob: 'STREAM.SERVED',
  cancelJob: 'JOB.CANCEL.SERVED',
  retryJob: 'JOB.RETRY.SERVED',
  purgeQueue: 'JOB.PURGE.SERVED',
  getHealth: 'HEALTH.SERVED',
  createEndpointV1: 'HTTP.REST_V1_URL.PATH',
  graphql: 'HTTP.BASE_URL.GRAPHQL',
};

/** Whether a finding was read from an answer that says its operation is missing, and is not that operation's own rule. */
export const readFromAbsence = (f: Finding): boolean =>
  f.exchange?.absent !== undefined && OWN_RULE[f.exchange.operation as OperationName] !== f.rule;

/**
 * Findings split into those judged (`kept`) and those not: read from an answer that says its
 * operation is missing ({@link readFromAbsence}), or, in a test that met such an answer
 * (`met`), read from no answer in particular (a value the missing operation would have given).
 * `absent` names the missing operations that block the rest, each once, in order.
 */
export function splitByAbsence(findings: readonly Finding[], met: readonly string[]): { kept: Finding[]; absent: string[] } {
  const unjudged = (f: Finding): boolean => readFromAbsence(f) || (f.exchange === undefined && met.length > 0);
  const kept = findings.filter((f) => !unjudged(f));
  const absent = [...new Set(findings.filter(unjudged).flatMap((f) => (f.exchange?.absent !== undefined ? [f.exchange.absent] : met)))];
  return { kept, absent };
}
