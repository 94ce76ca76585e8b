/**
 * How chaos shapes an answer without changing what it says: extra members on the objects the
 * spec leaves open, and the case of header names (RFC 9110: field names are case-insensitive).
 */

/**
 * Members whose value no extra member may enter: `mounts` (spec, Mounts: "Object with no
 * additional properties", and PersistentMount and NetworkMount "no additional properties"),
 * `env` (the pod's environment: a member would be a variable nobody set), and a job's `output`
 * and `input` (the handler's, not the platform's).
 */
export const CLOSED_MEMBERS: ReadonlySet<string> = new Set(['mounts', 'env', 'output', 'input']);

/** Deeper than this, a body is left as it is (answers nest a few levels). */
const MAX_DEPTH = 16;

/**
 * A copy of a JSON body with `name: value` added to every object in it, outside the closed
 * members (an object that already has `name` keeps its own).
 */
export function withExtraMember(body: unknown, name: string, value: number, depth = 0): unknown {
  if (depth > MAX_DEPTH || body === null || typeof body !== 'object') return body;
  if (Array.isArray(body)) return body.map((item: unknown) => withExtraMember(item, name, value, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) out[k] = CLOSED_MEMBERS.has(k) ? v : withExtraMember(v, name, value, depth + 1);
  if (!Object.hasOwn(out, name)) out[name] = value;
  return out;
}

export type HeaderCase = 'as-sent' | 'lower' | 'upper';
export const HEADER_CASES: readonly HeaderCase[] = ['as-sent', 'lower', 'upper'];

/** The headers with their names in `style` (values untouched). */
export function caseHeaders(headers: Record<string, string | number>, style: HeaderCase): Record<string, string | number> {
  if (style === 'as-sent') return headers;
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(headers)) out[style === 'lower' ? k.toLowerCase() : k.toUpperCase()] = v;
  return out;
}
