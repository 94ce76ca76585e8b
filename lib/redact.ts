/**
 * Redaction of API keys from anything the suite writes: logs, evidence, reports.
 * Keys are registered as they become known (config, minted test keys); every known key is
 * replaced wherever it appears, and credentials in well-known places are masked even when
 * the key itself was never registered.
 */
export const REDACTED = '[REDACTED]';

const known = new Set<string>();

/** Registers a secret value (an API key) so every later redaction removes it. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) known.add(value);
}

/** Replaces every registered secret in a string, plus bearer tokens and `api_key=` values. */
export function redactText(text: string): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  // `${VAR}` references (curl lines) are not secrets and stay readable.
  out = out.replace(/(api_key=)(?!\$\{)[^&\s"'#]+/gi, `$1${REDACTED}`);
  // A credential after "Bearer": 8+ token characters including a digit or a symbol, so prose
  // ("the Bearer scheme") stays readable; registered keys are removed above whatever they look like.
  out = out.replace(/(\bBearer\s+)(?!\[REDACTED\])(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`);
  return out;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie', 'set-cookie']);

/** Header map with credentials masked (names kept, values replaced). */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const v = Array.isArray(value) ? value.join(', ') : value;
    if (SECRET_HEADERS.has(name.toLowerCase())) {
      const scheme = /^(Bearer|Basic)\s+/i.exec(v)?.[0] ?? '';
      out[name] = v.trim() === '' ? v : `${scheme}${REDACTED}`;
    } else out[name] = redactText(v);
  }
  return out;
}

const SECRET_FIELDS = /^(api_?key|authorization|password)$/i;

/** Deep copy of a JSON-like value with every string redacted. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.test(k) && typeof v === 'string' ? REDACTED : redactValue(v);
    return out as T;
  }
  return value;
}
