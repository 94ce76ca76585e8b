/**
 * Whether an answer says the operation itself is not there (a route missing, a method not
 * served, a page where the spec gives JSON), as opposed to an answer about the request. A
 * missing operation is one finding, its own rule's (contract/support/availability.ts); every
 * other rule that needs the operation is blocked by it, never failed.
 */
import { operations, type OperationName } from './operations.js';
import type { HttpResponse } from './transport.js';

/** Statuses that say no operation is served at this method and path, whatever the request. */
const NOT_SERVED = new Set([405, 501]);

const isJsonType = (contentType: string): boolean => contentType === 'application/json' || contentType.endsWith('+json');

/** The spec's method and path of an operation, or the call's own line for a path called directly. */
export function operationLine(operation: string): string {
  const def = (operations as Record<string, { method: string; path: string } | undefined>)[operation];
  return def ? `${def.method} ${def.path}` : operation;
}

/** "GET /v2/{endpointId}/status/{jobId} answered 405" (with the content type when it is not JSON). */
export function answerLine(res: { operation: string; status: number; contentType: string }): string {
  const type = res.contentType && !isJsonType(res.contentType) ? ` (${res.contentType})` : res.contentType ? '' : ' (no content type)';
  return `${operationLine(res.operation)} answered ${res.status}${type}`;
}

/** What the client knows of one answer when it judges absence. */
export interface AnswerFacts { operation: string; status: number; contentType: string; text: string }

/**
 * The absence an answer shows, as a line naming it, or undefined. `unknownRoute`: whether a JSON
 * 404 reads as the target's answer to a route it does not serve ({@link sameAsUnknownRoute});
 * only asked for a JSON 404 of a spec'd operation. Only the spec's operations (called by
 * operationId) are judged: a test that calls a path of its own (a wrong method on purpose, an
 * unknown route) gets its answer as it is.
 */
export async function absenceOf(facts: AnswerFacts, unknownRoute: () => Promise<boolean>): Promise<string | undefined> {
  if (!Object.hasOwn(operations, facts.operation)) return undefined;
  const json = isJsonType(facts.contentType);
  if (NOT_SERVED.has(facts.status)) return answerLine(facts);
  if (facts.status === 404 && (!json || await unknownRoute())) return answerLine(facts);
  if (facts.status >= 200 && facts.status < 300 && facts.text.length > 0 && !json) return answerLine(facts);
  return undefined;
}

/** A segment no spec'd operation has: the probe's stand-in for the operation's own name. */
export const PROBE_SEGMENT = 'cpc-no-such-operation';

/**
 * The path of a route the target cannot serve, shaped as the operation's: its last literal
 * segment replaced by {@link PROBE_SEGMENT}, the parameters kept (`/v2/ep1/status/j1` →
 * `/v2/ep1/cpc-no-such-operation/j1`), so the target reaches the same point of its routing.
 */
export function probePath(operation: OperationName, actualPath: string): string {
  const template = operations[operation].path.split('/');
  const actual = actualPath.split('/');
  const last = template.findLastIndex((s) => s.length > 0 && !s.startsWith('{'));
  if (last < 0 || template.length !== actual.length) return `${actualPath.replace(/\/$/, '')}/${PROBE_SEGMENT}`;
  actual[last] = PROBE_SEGMENT;
  return actual.join('/');
}

/** The target's answer to the probe, and the path it was sent to. */
export type UnknownRouteAnswer = HttpResponse & { path: string; contentType: string };

const PATH_MARK = '\u0000path\u0000';

/**
 * Whether a JSON 404 of the operation is the same answer as the probe's (a route the target
 * does not serve): same status and content type, and the same body once each names its own
 * path alike. A body that differs (a job unknown, a resource deleted) is an answer about the
 * request, not a missing route.
 */
export function sameAsUnknownRoute(answer: { status: number; contentType: string; text: string; path: string }, probe: UnknownRouteAnswer): boolean {
  if (probe.status !== answer.status || probe.contentType !== answer.contentType) return false;
  const probeText = Buffer.from(probe.bytes).toString('utf8').split(probe.path).join(PATH_MARK);
  return probeText === answer.text.split(answer.path).join(PATH_MARK);
}
