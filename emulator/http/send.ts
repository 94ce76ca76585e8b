import type { ServerResponse } from 'node:http';
import type { World } from '../world.js';
import { endThisTurn } from './outbox.js';
import { problem, type Reply } from './reply.js';

/** `Content-Type` values, built once per media type (every response sends one). */
const CONTENT_TYPES = new Map<string, string>();
const contentTypeHeader = (type: string): string => {
  let value = CONTENT_TYPES.get(type);
  if (value === undefined) { value = `${type}; charset=utf-8`; CONTENT_TYPES.set(type, value); }
  return value;
};

/**
 * The send step, and the only place that writes responses: the reply as bytes, with its
 * `Content-Type` and `Content-Length`. The reply's headers win over `base`, which belongs to
 * this request alone (the rate-limit headers), so it is written into. The answer leaves at the
 * end of the event-loop turn, with the turn's other answers (`outbox.ts`).
 *
 * Faults, on problem+json bodies of a world (the control surface has none):
 * `problem.plain-json`, `problem.no-title`, `problem.no-detail`, `problem.status-mismatch`,
 * `problem.errors-objects`.
 */
export function send(res: ServerResponse, reply: Reply, world: World | undefined, base?: Record<string, string>): void {
  const headers: Record<string, string | number> = base ?? {};
  if (reply.headers) Object.assign(headers, reply.headers);
  let payload: string | undefined;
  if (reply.text !== undefined) {
    payload = reply.text;
    headers['Content-Type'] = contentTypeHeader(reply.contentType ?? 'text/plain');
    headers['Content-Length'] = Buffer.byteLength(payload);
  } else if (reply.status !== 204 && reply.body !== undefined) {
    let body = reply.body;
    let type = reply.contentType ?? 'application/json';
    if (type === 'application/problem+json' && world) {
      if (world.fault('problem.plain-json')) type = 'application/json';
      const copy = { ...(body as Record<string, unknown>) };
      if (world.fault('problem.no-title')) delete copy.title;
      if (world.fault('problem.no-detail')) delete copy.detail;
      if (world.fault('problem.status-mismatch')) copy.status = reply.status === 400 ? 422 : 400;
      if (world.fault('problem.errors-objects')) copy.errors = [{ message: 'see detail' }];
      body = copy;
    }
    // Legal chaos: extra members on the objects the spec leaves open.
    if (world?.chaos !== undefined) body = world.chaos.shapeBody(res, body);
    try {
      payload = JSON.stringify(body);
    } catch {
      payload = JSON.stringify(problem('internal', 'The response could not be serialised.').body);
      reply = { ...reply, status: 500 };
      type = 'application/problem+json';
    }
    headers['Content-Type'] = contentTypeHeader(type);
    headers['Content-Length'] = Buffer.byteLength(payload);
  }
  // writeHead only validates and stores the head (a bad header throws here, inside the pipeline's
  // error handling); the bytes leave with the other answers of this event-loop turn.
  res.writeHead(reply.status, world?.chaos !== undefined ? world.chaos.shapeHeaders(res, headers) : headers);
  endThisTurn(res, payload);
}
