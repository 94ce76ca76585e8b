/**
 * Reads `RateLimit` and `RateLimit-Policy` (spec, Limits: "structured-field list[s] with one
 * member per window", windows `minute`, `hour`, `day`; `r` and `t` in RateLimit, `q` and `w`
 * in RateLimit-Policy). Pure ECMAScript: k6 and Node both run it.
 */
import { parseList, param, type BareItem } from './structured-fields.ts';

export const WINDOWS = ['minute', 'hour', 'day'] as const;
export type WindowName = (typeof WINDOWS)[number];

/** The window lengths the spec's names imply, in seconds. */
export const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, hour: 3600, day: 86400 };

export interface LimitMember { r: number; t: number }
export interface PolicyMember { q: number; w: number }

/** Both headers of one response, per window, with what was wrong with them (never thrown). */
export interface RateLimitReading {
  limit: Partial<Record<WindowName, LimitMember>>;
  policy: Partial<Record<WindowName, PolicyMember>>;
  /** Syntax problems: absent header, not a List, a member neither a String nor a Token, a parameter not an Integer. */
  syntax: string[];
  /** Window problems: a window missing, repeated or unknown. */
  windows: string[];
}

/** Case-insensitive header lookup (k6 canonicalises names: `Ratelimit-Policy`). */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== lower) continue;
    const v = headers[key];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return undefined;
}

const integerOf = (item: BareItem | undefined): number | undefined => (item && item.type === 'integer' ? item.value : undefined);

function readField<K extends string>(
  header: string, value: string | undefined, keys: readonly [K, K], into: Partial<Record<WindowName, Record<K, number>>>,
  syntax: string[], windows: string[],
): void {
  if (value === undefined) { syntax.push(`${header} is absent`); return; }
  let members;
  try {
    members = parseList(value);
  } catch (e) {
    syntax.push(`${header} is not a structured-field List: ${(e as Error).message}`);
    return;
  }
  const seen: string[] = [];
  for (const m of members) {
    if (m.kind !== 'item') { syntax.push(`${header} holds an inner list`); continue; }
    const name = m.value.type === 'string' || m.value.type === 'token' ? m.value.value : String(m.value.value);
    // The spec names the windows, not the item type: a String or a Token names one.
    if (m.value.type !== 'string' && m.value.type !== 'token') syntax.push(`${header} member ${name} is a ${m.value.type}, not a String or a Token`);
    if (!(WINDOWS as readonly string[]).includes(name)) { windows.push(`${header} names an unknown window "${name}"`); continue; }
    if (seen.includes(name)) windows.push(`${header} names "${name}" twice`);
    seen.push(name);
    const a = integerOf(param(m.params, keys[0]));
    const b = integerOf(param(m.params, keys[1]));
    if (a === undefined || b === undefined) {
      syntax.push(`${header} "${name}" needs Integer parameters ${keys[0]} and ${keys[1]}`);
      continue;
    }
    into[name as WindowName] = { [keys[0]]: a, [keys[1]]: b } as Record<K, number>;
  }
  for (const w of WINDOWS) if (!seen.includes(w)) windows.push(`${header} has no "${w}" member`);
}

/** Reads both headers from a response's headers (any capitalisation). */
export function readRateLimit(headers: Record<string, string | string[] | undefined>): RateLimitReading {
  const reading: RateLimitReading = { limit: {}, policy: {}, syntax: [], windows: [] };
  readField('RateLimit', headerValue(headers, 'RateLimit'), ['r', 't'], reading.limit, reading.syntax, reading.windows);
  readField('RateLimit-Policy', headerValue(headers, 'RateLimit-Policy'), ['q', 'w'], reading.policy, reading.syntax, reading.windows);
  return reading;
}

/** True when every window has both a RateLimit and a RateLimit-Policy member. */
export function complete(reading: RateLimitReading): reading is RateLimitReading & { limit: Record<WindowName, LimitMember>; policy: Record<WindowName, PolicyMember> } {
  return WINDOWS.every((w) => reading.limit[w] !== undefined && reading.policy[w] !== undefined);
}
