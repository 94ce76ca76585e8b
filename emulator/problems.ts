/**
 * The emulator's problem catalog: every error it can answer, in one place.
 *
 * Each entry is an RFC 9457 problem type. The spec requires `title`, `status` and `detail`
 * (and allows `errors[]`); `type` is added so clients can tell kinds apart. A test keeps this
 * catalog, the emulator docs and `schemas/problem.schema.json` in step.
 */
export const PROBLEM_BASE = 'https://emulator.compute-platform.test/problems/';

export const problemCatalog = {
  'malformed-json': { status: 400, title: 'Malformed JSON', doc: 'The request body is not valid JSON.' },
  'bad-request': { status: 400, title: 'Bad Request', doc: 'The request is malformed or conflicts with a rule of the API.' },
  'validation-failed': { status: 400, title: 'Request validation failed', doc: 'The body breaks the request schema; `errors[]` names each failure by its JSON pointer.' },
  'unprocessable': { status: 422, title: 'Unprocessable Entity', doc: 'The body is syntactically valid but fails validation (for example an incomplete mount entry).' },
  'unauthorized': { status: 401, title: 'Unauthorized', doc: 'The API key is missing, malformed, expired or invalid.' },
  'forbidden': { status: 403, title: 'Forbidden', doc: 'The API key is valid but does not grant access to the resource or action.' },
  'not-found': { status: 404, title: 'Not Found', doc: 'No such resource for this account.' },
  'route-not-found': { status: 404, title: 'Not Found', doc: 'No operation is served at this method and path.' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed', doc: 'The path exists but not for this method.' },
  'conflict': { status: 409, title: 'Conflict', doc: 'The action is not valid in the resource\'s current state.' },
  'payload-too-large': { status: 413, title: 'Payload Too Large', doc: 'The body exceeds the operation\'s maximum payload.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type', doc: 'A body was sent with a content type other than application/json.' },
  'rate-limited': { status: 429, title: 'Too Many Requests', doc: 'A per-user rate-limit window is exhausted; `Retry-After` says how long to wait.' },
  'internal': { status: 500, title: 'Internal Server Error', doc: 'The emulator failed; this is a bug in the emulator.' },
} as const satisfies Record<string, { status: number; title: string; doc: string }>;

export type ProblemKind = keyof typeof problemCatalog;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: string[];
  [extension: string]: unknown;
}

/** Builds the body of a problem of the given kind. */
export function problemBody(kind: ProblemKind, detail: string, errors?: readonly string[]): ProblemBody {
  const entry = problemCatalog[kind];
  const body: ProblemBody = { type: PROBLEM_BASE + kind, title: entry.title, status: entry.status, detail };
  if (errors !== undefined && errors.length > 0) body.errors = [...errors];
  return body;
}
