import type { IncomingHttpHeaders } from 'node:http';
import type { AuthStyle } from './types.js';

/** Where the key came from, or why none could be read. Data, not exceptions. */
export type KeyExtraction =
  | { kind: 'key'; key: string }
  | { kind: 'missing' }
  | { kind: 'malformed'; reason: string };

const BEARER = /^Bearer +(\S+)\s*$/i;

/**
 * The key of a `Bearer <key>` value, or undefined. The pipeline reads the header twice (to
 * find the world, then to authenticate), so the last value's answer is kept.
 */
let lastBearer: { header: string; key: string | undefined } = { header: '', key: undefined };
function bearerKey(header: string): string | undefined {
  if (header !== lastBearer.header) lastBearer = { header, key: BEARER.exec(header)?.[1] };
  return lastBearer.key;
}

/** Reads the API key the way the route's surface carries it (spec, Authentication). */
export function extractKey(style: AuthStyle, headers: IncomingHttpHeaders, query: URLSearchParams): KeyExtraction {
  const header = headers.authorization;
  if (style === 'graphql') {
    const fromQuery = query.get('api_key');
    if (fromQuery !== null) return fromQuery.length > 0 ? { kind: 'key', key: fromQuery } : { kind: 'malformed', reason: 'empty api_key parameter' };
  }
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const bearer = bearerKey(header);
  if (bearer !== undefined) return { kind: 'key', key: bearer };
  if (style === 'serverless') {
    const raw = header.trim();
    if (/^\S+$/.test(raw)) return { kind: 'key', key: raw };
    return { kind: 'malformed', reason: 'authorization header must be the key, or "Bearer <key>"' };
  }
  return { kind: 'malformed', reason: 'expected "Authorization: Bearer <API_KEY>"' };
}

/** Any key-like header value, for resolving a world before routing (never authenticates). */
export function anyKey(headers: IncomingHttpHeaders, query: URLSearchParams): string | undefined {
  const q = query.get('api_key');
  if (q) return q;
  const h = headers.authorization;
  if (!h) return undefined;
  return bearerKey(h) ?? h.trim();
}
