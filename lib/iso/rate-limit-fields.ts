/**
 * The one reader of `RateLimit` and `RateLimit-Policy` (spec, Limits: "`RateLimit` is a
 * structured-field list with one member per window carrying remaining count `r` and seconds until
 * reset `t`; `RateLimit-Policy` is a structured-field list with one member per window carrying
 * quota `q` and window length `w` in seconds"; windows "named `minute`, `hour`, `day`").
 *
 * Pure ECMAScript over ./structured-fields.ts: the contract checks, the pacing client and the k6
 * scripts in `load/` all read the headers through it. What is wrong with a header is data (a
 * list of problems by kind, so checks can blame the right rule), never an exception.
 */
import { parseList, param, type BareItem } from './structured-fields.ts';
import { RATE_WINDOWS, type RateWindow } from './spec-constants.ts';

export interface LimitMember { r: number; t: number }
export interface PolicyMember { q: number; w: number }

/** What is wrong with a header. */
export interface FieldProblem {
  header: 'ratelimit' | 'ratelimit-policy';
  /**
   * `absent`: no such header; `syntax`: not a List, an inner list, a member neither a String nor a
   * Token, a parameter missing or not an Integer; `windows`: a window missing, unknown or repeated.
   */
  kind: 'absent' | 'syntax' | 'windows';
  message: string;
}

/** Both headers of one response, per window. */
export interface RateLimitReading {
  /** Per window: remaining `r` and seconds to reset `t` (RateLimit). */
  limit: Partial<Record<RateWindow, LimitMember>>;
  /** Per window: quota `q` and window length `w` (RateLimit-Policy). */
  policy: Partial<Record<RateWindow, PolicyMember>>;
  problems: FieldProblem[];
}

export type HeaderMap = Record<string, string | string[] | undefined>;

/** Case-insensitive header lookup (k6 canonicalises names: `Ratelimit-Policy`); repeated fields joined by ", ". */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== lower) continue;
    const v = headers[key];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return undefined;
}

const describe = (item: BareItem | undefined): string => (item === undefined ? 'nothing' : `a ${item.type} ${JSON.stringify(item.value)}`);
/** A Decimal as written (`59.0`, not `59`). */
const decimalText = (v: number): string => (Number.isInteger(v) ? v.toFixed(1) : String(v));

function readField<K extends string>(
  header: FieldProblem['header'], label: string, value: string | undefined, keys: readonly [K, K],
  into: Partial<Record<RateWindow, Record<K, number>>>, problems: FieldProblem[],
): void {
  const problem = (kind: FieldProblem['kind'], message: string) => problems.push({ header, kind, message: `${label} ${message}` });
  if (value === undefined) { problem('absent', 'is absent'); return; }
  let members;
  try {
    members = parseList(value);
  } catch (e) {
    problem('syntax', `is not a structured-field List: ${(e as Error).message}`);
    return;
  }
  const seen: string[] = [];
  for (const m of members) {
    if (m.kind !== 'item') { problem('syntax', 'holds an inner list, not a window member'); continue; }
    const named = m.value.type === 'string' || m.value.type === 'token';
    const name = named ? (m.value.value as string) : String(m.value.value);
    // The spec names the windows, not the item type: a String (`"minute"`) or a Token (`minute`) names one.
    if (!named) problem('syntax', `member ${name} is a ${m.value.type}, neither a String nor a Token naming a window`);
    if (!(RATE_WINDOWS as readonly string[]).includes(name)) { problem('windows', `names an unknown window "${name}"`); continue; }
    if (seen.includes(name)) problem('windows', `names "${name}" twice`);
    seen.push(name);
    const values: Partial<Record<K, number>> = {};
    for (const k of keys) {
      const item = param(m.params, k);
      // A Decimal keeps its value (pacing can use `r=59.0`) but breaks the member's syntax.
      if (item?.type === 'decimal') problem('syntax', `"${name}" parameter ${k}=${decimalText(item.value)} is a Decimal, not an Integer`);
      else if (item?.type !== 'integer') problem('syntax', `"${name}" parameter ${k} must be an Integer, got ${describe(item)}`);
      if (item?.type === 'integer' || item?.type === 'decimal') values[k] = item.value;
    }
    if (keys.every((k) => values[k] !== undefined)) into[name as RateWindow] = values as Record<K, number>;
  }
  for (const w of RATE_WINDOWS) if (!seen.includes(w)) problem('windows', `has no "${w}" member`);
}

/** Reads both headers from a response's headers (any capitalisation). */
export function readRateLimit(headers: HeaderMap): RateLimitReading {
  const reading: RateLimitReading = { limit: {}, policy: {}, problems: [] };
  readField('ratelimit', 'RateLimit', headerValue(headers, 'RateLimit'), ['r', 't'], reading.limit, reading.problems);
  readField('ratelimit-policy', 'RateLimit-Policy', headerValue(headers, 'RateLimit-Policy'), ['q', 'w'], reading.policy, reading.problems);
  return reading;
}

/** The messages of a reading's problems of the given kinds. */
export function problemMessages(reading: RateLimitReading, kinds: readonly FieldProblem['kind'][]): string[] {
  return reading.problems.filter((p) => kinds.includes(p.kind)).map((p) => p.message);
}

/** True when every window has both a RateLimit and a RateLimit-Policy member. */
export function complete(reading: RateLimitReading): reading is RateLimitReading & { limit: Record<RateWindow, LimitMember>; policy: Record<RateWindow, PolicyMember> } {
  return RATE_WINDOWS.every((w) => reading.limit[w] !== undefined && reading.policy[w] !== undefined);
}
