import { parseList, type Item } from 'structured-headers';

/** The spec's three windows (Limits: "three windows named `minute`, `hour`, `day`"). */
export const RATE_WINDOWS = ['minute', 'hour', 'day'] as const;
export type RateWindow = (typeof RATE_WINDOWS)[number];

export interface RateLimitMember { name: string; params: Record<string, unknown>; nameIsString: boolean }

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
    members.push({ name: nameIsString ? bare : String(bare), nameIsString, params: Object.fromEntries(params) });
  }
  return { ok: true, members };
}

export interface RateLimitSnapshot {
  /** Per window: remaining `r` and seconds to reset `t` (RateLimit). */
  limit: Partial<Record<RateWindow, { r: number; t: number }>>;
  /** Per window: quota `q` and window length `w` (RateLimit-Policy). */
  policy: Partial<Record<RateWindow, { q: number; w: number }>>;
}

/** Reads both headers into numbers per window; problems are listed, not thrown. */
export function readRateLimit(headers: Record<string, string>): { snapshot: RateLimitSnapshot; problems: string[] } {
  const problems: string[] = [];
  const snapshot: RateLimitSnapshot = { limit: {}, policy: {} };
  const pairs = [['ratelimit', ['r', 't']], ['ratelimit-policy', ['q', 'w']]] as const;
  for (const [header, keys] of pairs) {
    const parsed = parseRateLimitField(headers[header]);
    if (!parsed.ok) { problems.push(`${header}: ${parsed.error}`); continue; }
    for (const m of parsed.members) {
      if (!m.nameIsString) problems.push(`${header}: member ${m.name} is not a quoted String`);
      if (!(RATE_WINDOWS as readonly string[]).includes(m.name)) { problems.push(`${header}: unexpected member "${m.name}"`); continue; }
      const values: Record<string, number> = {};
      for (const k of keys) {
        const v = m.params[k];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) problems.push(`${header}: "${m.name}" parameter ${k} must be a non-negative Integer, got ${JSON.stringify(v)}`);
        else values[k] = v;
      }
      if (header === 'ratelimit') snapshot.limit[m.name as RateWindow] = values as { r: number; t: number };
      else snapshot.policy[m.name as RateWindow] = values as { q: number; w: number };
    }
    for (const w of RATE_WINDOWS) if (!parsed.members.some((m) => m.name === w)) problems.push(`${header}: no member for the "${w}" window`);
  }
  return { snapshot, problems };
}
