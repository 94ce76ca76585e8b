/**
 * Redaction of API keys from everything the suite writes: logs, evidence, the raw results file,
 * reports, baselines and diffs. One set of patterns for all of them.
 *
 * Keys reach it three ways. Registered: the configuration and the control client register every
 * key they read or mint ({@link registerSecret}). Learnt: a report is built in a process that
 * never saw the keys minted by test workers, so {@link harvestValue} collects keys from where
 * credentials sit (an `Authorization`/`X-Api-Key` header, an `api_key=` parameter, a JSON field
 * named like a key, the emulator's `cpk_` format) and {@link redactValue} removes each learnt key
 * everywhere else it appears. In place: a credential in one of those places is masked even when
 * it was never seen before.
 */
export const REDACTED = '[REDACTED]';

const known = new Set<string>();
/** The registered keys, longest first; sorted again only after a registration (a worker registers a world's keys per test and redacts every exchange). */
let knownOrdered: string[] | undefined;
const longestFirst = (a: string, b: string): number => b.length - a.length;

/** Registers a secret value (an API key) so every later redaction removes it. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6 && !known.has(value)) {
    known.add(value);
    knownOrdered = undefined;
  }
}

// A credential value: no spaces, quotes or separators; `${VAR}` references (curl lines),
// [REDACTED], a `<placeholder>` (the spec's and the rules' `Bearer <API_KEY>`) and a bare scheme
// word (`Authorization: Bearer` with no token) are not keys.
const CHAR = String.raw`[^\s'"&#,;\\]`;
const NOT_A_KEY = String.raw`(?!\[REDACTED\])(?!\$\{)(?!<)(?!(?:bearer|basic|token)(?!${CHAR}))`;
const TOKEN = String.raw`${NOT_A_KEY}(${CHAR}{6,})`;

/** Where credentials sit in text; group 1 is the credential. */
const PLACES: readonly RegExp[] = [
  // Header lines, as in curl `-H 'authorization: KEY'` or an error message quoting a header.
  new RegExp(String.raw`\b(?:proxy-)?(?:authorization|x-api-key)\s*:\s*(?:(?:bearer|basic|token)\s+)?` + TOKEN, 'gi'),
  // A query parameter, whatever its length (`?api_key=bad` is masked too).
  new RegExp(String.raw`\bapi[_-]?key=${NOT_A_KEY}(${CHAR}+)`, 'gi'),
  // A credential after "Bearer" in free text: 8+ token characters including a digit or a symbol,
  // so prose ("the Bearer scheme") stays readable.
  /\bBearer\s+(?!\[REDACTED\])(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])([A-Za-z0-9._~+/=-]{8,})/gi,
  // JSON fields named like a key, inside a body string: "api_key": "KEY".
  new RegExp(String.raw`"(?:api[_-]?key|apikey|authorization|proxy-authorization|x-api-key|password)"\s*:\s*"(?:(?:bearer|basic|token)\s+)?` + TOKEN, 'gi'),
  // The emulator's key format.
  /\b(cpk_[A-Za-z0-9_-]{16,})/g,
];

/** Header and field names whose whole value is a credential. */
const SECRET_NAME = /^(?:api[_-]?key|apikey|authorization|proxy-authorization|x-api-key|password|cookie|set-cookie)$/i;
const SCHEME = /^((?:bearer|basic|token)\s+)?/i;

/** Learnt keys must be this long: a short test value like `invalid` is masked where it sits, not hunted everywhere. */
const LEARN_MIN = 12;

const learnable = (token: string): boolean => token.length >= LEARN_MIN && !/\s/.test(token) && !token.includes(REDACTED) && !token.startsWith('${');

/** A word every one of {@link PLACES} contains: text without one holds no credential in place, and is not searched further. */
const ANY_PLACE = /authorization|x-api-key|api[_-]?key|bearer|password|cpk_/i;

/** Keys found in `text` where credentials sit. */
export function harvestKeys(text: string, into: Set<string> = new Set()): Set<string> {
  if (!ANY_PLACE.test(text)) return into;
  for (const re of PLACES) for (const m of text.matchAll(re)) if (m[1] && learnable(m[1])) into.add(m[1]);
  return into;
}

/** Every key found anywhere in a JSON-like value: in strings, and as values of key-named fields. */
export function harvestValue(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') harvestKeys(value, into);
  else if (Array.isArray(value)) for (const v of value) harvestValue(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_NAME.test(k) && typeof v === 'string') {
        const token = v.replace(SCHEME, '').trim();
        if (learnable(token)) into.add(token);
      }
      harvestValue(v, into);
    }
  }
  return into;
}

/** Removes the registered keys, the given learnt keys and credentials in their usual places. */
export function redactText(text: string, keys: Iterable<string> = []): string {
  let out = text;
  // Longest first, so a key that contains another is removed whole.
  const registered = (knownOrdered ??= [...known].sort(longestFirst));
  const learnt = [...keys];
  for (const key of learnt.length ? [...registered, ...learnt].sort(longestFirst) : registered) {
    if (key.length <= out.length && out.includes(key)) out = out.split(key).join(REDACTED);
  }
  for (const re of PLACES) out = out.replace(re, (match, token: string) => match.slice(0, match.length - token.length) + REDACTED);
  return out;
}

/** A credential's value masked, its scheme word kept (`Bearer [REDACTED]`); an empty value stays empty. */
const masked = (value: string): string => (value.trim() === '' ? value : `${SCHEME.exec(value)?.[0] ?? ''}${REDACTED}`);

/** Header map with credentials masked (names kept, values replaced) and keys removed from the rest. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const v = Array.isArray(value) ? value.join(', ') : value;
    out[name] = SECRET_NAME.test(name) ? masked(v) : redactText(v);
  }
  return out;
}

function redactWith<T>(value: T, keys: readonly string[]): T {
  if (typeof value === 'string') return redactText(value, keys) as T;
  if (Array.isArray(value)) return value.map((v) => redactWith(v, keys)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_NAME.test(k) && typeof v === 'string' ? masked(v) : redactWith(v, keys);
    return out as T;
  }
  return value;
}

/** A deep copy of a JSON-like value with every key removed: the registered ones, those it reveals anywhere, and `extra`. */
export function redactValue<T>(value: T, extra: Iterable<string> = []): T {
  return redactWith(value, [...harvestValue(value, new Set(extra))]);
}
