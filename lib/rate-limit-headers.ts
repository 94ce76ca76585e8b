import { parseList, Token, type Item } from 'structured-headers';

/** The spec's three windows (Limits: "three windows named `minute`, `hour`, `day`"). */
export const RATE_WINDOWS = ['minute', 'hour', 'day'] as const;
export type RateWindow = (typeof RATE_WINDOWS)[number];

/**
 * One member: its window name, parameters, and how the name was written. The spec says "one
 * member per window" with windows "named `minute`, `hour`, `day`": a String (`"minute"`, as the
 * IETF draft writes it) or a Token (`minute`) both name the window; other item types do not.
 */
export interface RateLimitMember { name: string; params: Record<string, unknown>; nameIsString: boolean; nameIsToken: boolean }

/** Parse outcome: data, never an exception. */
export type ParsedField =
  | { ok: true; members: RateLimitMember[] }
  | { ok: false; error: string };

/** Parses a `RateLimit` or `RateLimit-Policy` value as an RFC 9651 List (structured-headers). */
export function parseRateLimitField(value: string | undefined): ParsedField {
  if (value === undefined) return { ok: false, error: 'header absent' };
  let list;
  try {
    list = parseList(value);
  } catch (e) {
    return { ok: false, error: `not a structured-field List: ${(e as Error).message}` };
  }
  const members: RateLimitMember[] = [];
  for (const member of list) {
    if (Array.isArray(member[0])) return { ok: false, error: 'inner lists are not allowed as members' };
    const [bare, params] = member as Item;
    const nameIsString = typeof bare === 'string';
    const nameIsToken = bare instanceof Token;
    members.push({ name: nameIsString ? bare : nameIsToken ? bare.toString() : String(bare), nameIsString, nameIsToken, params: Object.fromEntries(params) });
  }
  return { ok: true, members };
}

export interface RateLimitSnapshot {
  /** Per window: remaining `r` and seconds to reset `t` (RateLimit). */
  limit: Partial<Record<RateWindow, { r: number; t: number }>>;
  /** Per window: quota `q` and window length `w` (RateLimit-Policy). */
  policy: Partial<Record<RateWindow, { q: number; w: number }>>;
}

/** What is wrong with a header, by kind, so checks can attribute it to the right rule. */
export interface FieldProblem {
  header: 'ratelimit' | 'ratelimit-policy';
  /** `syntax`: not a List or a member not a String with Integer params; `windows`: members missing, unknown or repeated. */
  kind: 'absent' | 'syntax' | 'windows';
  message: string;
}

/** Reads both headers into numbers per window; problems are listed, never thrown. */
export function readRateLimit(headers: Record<string, string>): { snapshot: RateLimitSnapshot; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const snapshot: RateLimitSnapshot = { limit: {}, policy: {} };
  const pairs = [['ratelimit', ['r', 't']], ['ratelimit-policy', ['q', 'w']]] as const;
  for (const [header, keys] of pairs) {
    if (headers[header] === undefined) { problems.push({ header, kind: 'absent', message: `${header}: header absent` }); continue; }
    const parsed = parseRateLimitField(headers[header]);
    if (!parsed.ok) { problems.push({ header, kind: 'syntax', message: `${header}: ${parsed.error}` }); continue; }
    // RFC 9651 parsers return Integers and Decimals alike as numbers; `59.0` parses to 59, so
    // the Decimal form is caught in the text itself (a Decimal always has a dot, a String is quoted).
    for (const m of headers[header]!.replace(/"(?:[^"\\]|\\.)*"/g, '""').matchAll(/;\s*([a-z][a-z0-9_.*-]*)=(-?\d+\.\d+)/g)) {
      problems.push({ header, kind: 'syntax', message: `${header}: parameter ${m[1]}=${m[2]} is a Decimal, not an Integer` });
    }
    const seen = new Set<string>();
    for (const m of parsed.members) {
      if (!m.nameIsString && !m.nameIsToken) problems.push({ header, kind: 'syntax', message: `${header}: member ${m.name} is neither a String nor a Token naming a window` });
      if (!(RATE_WINDOWS as readonly string[]).includes(m.name)) { problems.push({ header, kind: 'windows', message: `${header}: unexpected member "${m.name}"` }); continue; }
      if (seen.has(m.name)) problems.push({ header, kind: 'windows', message: `${header}: "${m.name}" appears more than once` });
      seen.add(m.name);
      const values: Record<string, number> = {};
      for (const k of keys) {
        const v = m.params[k];
        if (typeof v !== 'number' || !Number.isInteger(v)) problems.push({ header, kind: 'syntax', message: `${header}: "${m.name}" parameter ${k} must be an Integer, got ${JSON.stringify(v)}` });
        else values[k] = v;
      }
      if (Object.keys(values).length === keys.length) {
        if (header === 'ratelimit') snapshot.limit[m.name as RateWindow] = values as { r: number; t: number };
        else snapshot.policy[m.name as RateWindow] = values as { q: number; w: number };
      }
    }
    for (const w of RATE_WINDOWS) if (!seen.has(w)) problems.push({ header, kind: 'windows', message: `${header}: no member for the "${w}" window` });
  }
  return { snapshot, problems };
}
