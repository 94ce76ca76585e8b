import { problemBody, problemCatalog, type ProblemKind } from '../problems.js';
import { ProblemError } from '../../lib/errors.js';

/** Thrown inside handlers to answer with a problem; the app catches it (lib/errors.ts). */
export { ProblemError };

/** What a route handler answers; the app turns it into bytes. */
export interface Reply {
  status: number;
  headers?: Record<string, string | number>;
  /** JSON-serialisable body; `undefined` means no body (for 204). */
  body?: unknown;
  /** Defaults to application/json when a body is present. */
  contentType?: string;
  /** A body already written as text (server-sent events), sent as is with `contentType`; `body` is then ignored. */
  text?: string;
}

export const json = (status: number, body: unknown, headers?: Record<string, string | number>): Reply =>
  (headers ? { status, body, headers } : { status, body });

export const noContent = (): Reply => ({ status: 204 });

/** A problem+json reply from the catalog. */
export function problem(kind: ProblemKind, detail: string, errors?: readonly string[], headers?: Record<string, string | number>): Reply {
  return {
    status: problemCatalog[kind].status,
    body: problemBody(kind, detail, errors),
    contentType: 'application/problem+json',
    ...(headers ? { headers } : {}),
  };
}

export const fail = (kind: ProblemKind, detail: string, errors?: readonly string[]): never => {
  throw new ProblemError(problem(kind, detail, errors));
};
