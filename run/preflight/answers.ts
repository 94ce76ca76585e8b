/**
 * What "a surface answers" means in a preflight: the status class, the content type and the body
 * shape the spec gives the call, not any HTTP answer. A 404 where the spec serves an operation,
 * a 405 or 501, or an HTML page is not an answer (lib/client/absence.ts): a required surface
 * that gives one is not ready, and the check names the answer.
 */
import type { ApiResult } from '../../lib/client/api.js';
import { answerLine } from '../../lib/client/absence.js';

/** What the spec gives one preflight call. */
export interface SpecAnswer {
  /** The statuses the spec gives it (refusals of a key included: the key checks judge those). */
  status: (status: number) => boolean;
  /** The statuses, in words, for the message. */
  statusText: string;
  /** The body is JSON (the spec's "Bodies and responses are JSON", problem+json for REST v2 errors). */
  json: boolean;
  /** The body's shape on a 2xx, when the spec gives one, and its words. */
  shape?: { holds: (body: unknown) => boolean; text: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isJson = (contentType: string): boolean => contentType === 'application/json' || contentType.endsWith('+json');
const success = (s: number): boolean => s >= 200 && s < 300;
const keyRefused = (s: number): boolean => s === 401 || s === 403;

/** REST v2 `GET /v2/pods` with a key: a JSON list (or an object holding one), or the key's refusal as problem+json. */
export const REST_V2_LIST: SpecAnswer = {
  status: (s) => success(s) || keyRefused(s), statusText: 'a 2xx, or 401/403 for the key', json: true,
  shape: { holds: (b) => Array.isArray(b) || isObject(b), text: 'a JSON list of pods' },
};

/** GraphQL `myself`: the spec's `{data: {...}}` (or `{errors: [...]}`), JSON. */
export const GRAPHQL_MYSELF: SpecAnswer = {
  status: (s) => success(s) || keyRefused(s), statusText: 'a 2xx, or 401/403 for the key', json: true,
  shape: { holds: (b) => isObject(b) && (isObject(b.data) || Array.isArray(b.errors)), text: 'a JSON body {data: {myself}} or {errors}' },
};

/** Serverless `GET /health` of the configured endpoint: a Health object; 404 says the endpoint is unknown. */
export const SERVERLESS_HEALTH: SpecAnswer = {
  status: (s) => success(s) || keyRefused(s) || s === 404, statusText: 'a 2xx, 401/403 for the key, or 404 for an unknown endpoint', json: true,
  shape: { holds: (b) => isObject(b) && isObject(b.jobs) && isObject(b.workers), text: 'a Health object {jobs, workers}' },
};

/** Serverless `GET /health` of an endpoint that does not exist, without a key: a refusal (the format of its errors is not shown). */
export const SERVERLESS_UNKNOWN: SpecAnswer = { status: (s) => s >= 400 && s < 500 && s !== 405, statusText: 'a 4xx refusal', json: false };

/**
 * REST v1 `POST /v1/endpoints` without a key and with an empty body: refused (401 for the missing
 * key, or 400 for the body if the target validates first), never created; a 404 or 405 on the
 * spec's own method and path says the operation is not served.
 */
export const REST_V1_REFUSED: SpecAnswer = { status: (s) => s >= 400 && s < 500 && s !== 404 && s !== 405, statusText: 'a refusal (401 without a key)', json: false };

/**
 * Why `res` is not the answer `spec` gives, naming the answer ("GET /v2/pods answered 404"), or
 * undefined when it is. An answer that says the operation is missing is never one; an HTML page
 * never is, whatever the spec says of the body's format.
 */
export function notTheAnswer(res: ApiResult, spec: SpecAnswer): string | undefined {
  const line = answerLine(res);
  if (res.absent !== undefined) return `${res.absent}: the operation is not served there`;
  if (res.contentType === 'text/html') return `${line}: an HTML page, not an answer of the API`;
  if (!spec.status(res.status)) return `${line}: the spec gives ${spec.statusText}`;
  if (spec.json && res.text.length > 0 && !isJson(res.contentType)) return `${line}: the body is not JSON`;
  if (spec.shape && success(res.status) && !spec.shape.holds(res.body)) return `${line}: the body is not ${spec.shape.text}: ${res.text.slice(0, 120) || '(an empty body)'}`;
  return undefined;
}

/** The answer in a line, with its content type: "200 application/json". */
export const answered = (res: ApiResult): string => `${res.status}${res.contentType ? ` ${res.contentType}` : ''}`;
