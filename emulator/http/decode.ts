import type { IncomingHttpHeaders } from 'node:http';
import type { RouteDef } from '../types.js';
import type { World } from '../world.js';
import { jsonDepth, MAX_JSON_DEPTH, type BodyResult } from './body.js';
import { Refusal } from './outcome.js';
import { problem } from './reply.js';

/** Default maximum body for operations the spec gives no limit: 1 MiB (README #8). */
export const DEFAULT_MAX_BODY = 1024 * 1024;

/** A request body as JSON: `undefined` when the request had none. */
export interface Decoded { body: unknown; bytes: number }

/** No body at all (most GET and DELETE requests, and an empty POST). */
const NONE: Decoded = Object.freeze({ body: undefined, bytes: 0 });

/**
 * The decode step: a body read within the route's limit (`body.ts`) as JSON. 413 when it
 * exceeds the limit (a lingering close lets the client read it, `body.ts`), 415 for a content
 * type other than `application/json` or `+json` (README #10), 400 for malformed JSON or
 * nesting deeper than {@link MAX_JSON_DEPTH} (README #9); `undefined` when the client went
 * away (nothing is answered).
 *
 * Fault: `body.malformed-json-422`.
 */
export function decode(result: BodyResult, route: RouteDef, headers: IncomingHttpHeaders, world: World): Decoded | Refusal | undefined {
  if (result.kind === 'aborted') return undefined;
  if (result.kind === 'too-large') {
    // No `Connection: close`: the body's rest is read and discarded within bounds (body.ts,
    // LINGER), so a client still sending reads this answer, and one that finishes keeps its connection.
    return new Refusal(problem('payload-too-large', `The body exceeds the maximum payload of ${result.limit} bytes for ${route.operation}.`));
  }
  const bytes = result.bytes.length;
  if (bytes === 0) return NONE;
  const type = mediaType(headers['content-type']);
  if (type !== 'application/json' && !type.endsWith('+json') && route.anyBodyType !== true) {
    return new Refusal(problem('unsupported-media-type', `Send the body as application/json (got ${type || 'no content type'}).`));
  }
  const text = result.bytes.toString('utf8');
  // Nesting deeper than the limit takes more opening brackets than a shorter text holds.
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) {
    return new Refusal(problem('malformed-json', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`));
  }
  try {
    return { body: JSON.parse(text), bytes };
  } catch (e) {
    return new Refusal(problem(world.fault('body.malformed-json-422') ? 'unprocessable' : 'malformed-json', `The body is not valid JSON: ${(e as Error).message}.`));
  }
}

/** The media type of a `Content-Type` value, lower case, without parameters. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  if (header === 'application/json') return header;
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
}
