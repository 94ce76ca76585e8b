/**
 * The report's last line of defence against leaking API keys. `lib/redact` removes every
 * key registered in this process and credentials in the usual places; but a report is built
 * in a process that never saw the keys minted by test workers. So the scrubber also
 * *learns* keys from where credentials sit (an `Authorization`/`X-Api-Key` header, an
 * `api_key=` parameter, a JSON field named like a key, the emulator's `cpk_` key format)
 * and removes each learnt key everywhere else it appears: bodies, error messages, curl lines.
 */
import { REDACTED, redactText } from '../lib/redact.js';

// A credential value: no spaces or quotes; `${VAR}` references, [REDACTED] and a bare
// scheme word (`Authorization: Bearer` with no token) are not keys.
const CHAR = String.raw`[^\s'"&#,;\\]`;
const TOKEN = String.raw`(?!\[REDACTED\])(?!\$\{)(?!(?:bearer|basic|token)(?!${CHAR}))(${CHAR}{6,})`;
/** Learnt keys must be this long: a short test value like `invalid` is masked where it sits, not hunted everywhere. */
const LEARN_MIN = 12;
const PATTERNS: RegExp[] = [
  // Header lines, as in curl `-H 'authorization: KEY'` or an error message quoting a header.
  new RegExp(String.raw`\b(?:proxy-)?(?:authorization|x-api-key)\s*:\s*(?:(?:bearer|basic|token)\s+)?` + TOKEN, 'gi'),
  new RegExp(String.raw`\bapi[_-]?key=` + TOKEN, 'gi'),
  new RegExp(String.raw`\bbearer\s+` + TOKEN, 'gi'),
  // JSON fields named like a key, inside a body string: "api_key": "KEY".
  new RegExp(String.raw`"(?:api[_-]?key|apikey|authorization|x-api-key|password)"\s*:\s*"(?:(?:bearer|basic)\s+)?` + TOKEN, 'gi'),
  // The emulator's key format.
  /\b(cpk_[A-Za-z0-9_-]{16,})/g,
];
const SECRET_FIELD = /^(?:api[_-]?key|apikey|authorization|proxy-authorization|x-api-key|password)$/i;

/** Keys found in `text` where credentials sit. */
export function harvestKeys(text: string, into: Set<string> = new Set()): Set<string> {
  for (const re of PATTERNS) for (const m of text.matchAll(re)) if (m[1] && m[1].length >= LEARN_MIN) into.add(m[1]);
  return into;
}

/** Every key found anywhere in a JSON-like value: in strings, and as values of key-named fields. */
export function harvestValue(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') harvestKeys(value, into);
  else if (Array.isArray(value)) for (const v of value) harvestValue(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_FIELD.test(k) && typeof v === 'string') {
        const token = v.replace(/^(?:bearer|basic|token)\s+/i, '').trim();
        if (token.length >= LEARN_MIN && !/\s/.test(token) && !token.includes(REDACTED) && !token.startsWith('${')) into.add(token);
      }
      harvestValue(v, into);
    }
  }
  return into;
}

/** Removes registered keys, the given learnt keys and credentials in their usual places. */
export function scrubText(text: string, keys: ReadonlySet<string> = new Set()): string {
  let out = text;
  // Longest first, so a key that contains another is removed whole.
  for (const key of [...keys].sort((a, b) => b.length - a.length)) if (out.includes(key)) out = out.split(key).join(REDACTED);
  for (const re of PATTERNS) out = out.replace(re, (match, token: string) => match.slice(0, match.length - token.length) + REDACTED);
  return redactText(out);
}

function scrubWith<T>(value: T, keys: ReadonlySet<string>): T {
  if (typeof value === 'string') return scrubText(value, keys) as T;
  if (Array.isArray(value)) return value.map((v) => scrubWith(v, keys)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_FIELD.test(k) && typeof v === 'string' && v !== '' ? v.replace(/^((?:bearer|basic|token)\s+)?.*$/is, `$1${REDACTED}`) : scrubWith(v, keys);
    }
    return out as T;
  }
  return value;
}

/** A deep copy of `value` with every key removed: the keys it reveals anywhere, plus `extra`. */
export function scrubValue<T>(value: T, extra: Iterable<string> = []): T {
  const keys = harvestValue(value, new Set(extra));
  return scrubWith(value, keys);
}
