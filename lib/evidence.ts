import { redactHeaders, redactText } from './redact.js';

/** One exchange as the report shows it: enough to understand and reproduce, keys redacted. */
export interface Evidence {
  operation?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBytes: number };
  response?: { status: number; headers: Record<string, string>; body?: string; bodyBytes: number; durationMs: number };
  /** A curl line that replays the request; keys appear as environment variable references. */
  curl: string;
  error?: string;
}

/** Evidence keeps at most this many characters of a body; the byte count stays exact. */
export const EVIDENCE_BODY_LIMIT = 4096;

/** A curl line carries a body up to this many bytes; a larger one is referred to as a file. */
export const CURL_BODY_LIMIT = 64 * 1024;

export function clip(text: string, limit = EVIDENCE_BODY_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface CurlInput {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  bodyBytes: number;
  /** Which environment variable holds the key used (`CPC_API_KEY`...), if one was used. */
  keyVariable?: string;
  key?: string;
}

/** A curl line with the key replaced by `$VAR` (double-quoted so the shell expands it). */
export function toCurl(input: CurlInput): string {
  const parts = ['curl', '-sS', '-i', '-X', input.method];
  const swap = (s: string) => (input.key && input.keyVariable ? s.split(input.key).join(`\${${input.keyVariable}}`) : s);
  const url = swap(input.url);
  parts.push(url.includes('${') ? `"${url}"` : shellQuote(url));
  for (const [name, value] of Object.entries(input.headers)) {
    const v = swap(value);
    parts.push('-H', v.includes('${') ? `"${name}: ${v.replace(/"/g, '\\"')}"` : shellQuote(`${name}: ${v}`));
  }
  if (input.body !== undefined && input.bodyBytes > 0) {
    parts.push(input.bodyBytes > CURL_BODY_LIMIT ? `--data-binary @body.json  # ${input.bodyBytes} bytes` : `--data-raw ${shellQuote(swap(input.body))}`);
  }
  return redactText(parts.join(' '));
}

export function buildEvidence(input: CurlInput & { operation?: string }, response?: { status: number; headers: Record<string, string>; text: string; bytes: number; durationMs: number }, error?: string): Evidence {
  const evidence: Evidence = {
    ...(input.operation ? { operation: input.operation } : {}),
    request: {
      method: input.method,
      url: redactText(input.url),
      headers: redactHeaders(input.headers),
      ...(input.body !== undefined ? { body: redactText(clip(input.body)) } : {}),
      bodyBytes: input.bodyBytes,
    },
    curl: toCurl(input),
  };
  if (response) {
    evidence.response = {
      status: response.status,
      headers: redactHeaders(response.headers),
      body: redactText(clip(response.text)),
      bodyBytes: response.bytes,
      durationMs: Math.round(response.durationMs * 100) / 100,
    };
  }
  if (error) evidence.error = redactText(error);
  return evidence;
}
