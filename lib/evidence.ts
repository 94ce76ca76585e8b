import { redactHeaders, redactText } from './redact.js';

/** One exchange as the report shows it: enough to understand and reproduce, keys redacted. */
export interface Evidence {
  operation?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBytes: number };
  response?: { status: number; headers: Record<string, string>; body?: string; bodyBytes: number; durationMs: number };
  /** A curl line that replays the request; keys appear as environment variable references. */
  curl: string;
  error?: string;
  /** The rules whose findings were read from this exchange (the test shows it first for them). */
  brokeRules?: string[];
}

/**
 * The exchange to show first for a failed rule: the one its finding was read from, else the
 * test's last (the exchange the test ended on).
 */
export const exchangeFor = (evidence: readonly Evidence[], rule: string): Evidence | undefined =>
  evidence.find((e) => e.brokeRules?.includes(rule)) ?? evidence.at(-1);

/** Evidence keeps at most this many characters of a body; the byte count stays exact. */
export const EVIDENCE_BODY_LIMIT = 4096;

/** A curl line carries a body up to this many bytes; a larger one is referred to as a file. */
const CURL_BODY_LIMIT = 64 * 1024;

/**
 * How many of a test's last exchanges its evidence keeps: all of a failed test's or one that
 * records an observation (up to {@link EXCHANGES_ATTACHED}), a passing test's last one. The test
 * fixture attaches only these; the report keeps the same.
 */
export const EXCHANGES_ATTACHED = 6;
export const exchangesKept = (failed: boolean, observed: boolean): number => (failed || observed ? EXCHANGES_ATTACHED : 1);

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

/** A curl line with the key replaced by `$VAR` (double-quoted so the shell expands it), keys redacted. */
export function toCurl(input: CurlInput): string {
  return redactText(curlLine(input));
}

/** The curl line before redaction. */
function curlLine(input: CurlInput): string {
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
  return parts.join(' ');
}

export interface AnsweredExchange { status: number; headers: Record<string, string>; text: string; bytes: number; durationMs: number }

/** One exchange as evidence, keys redacted. */
export function buildEvidence(input: CurlInput & { operation?: string }, response?: AnsweredExchange, error?: string): Evidence {
  return redactEvidence(draftEvidence(input, response, error));
}

/**
 * The evidence of an exchange before redaction: bodies clipped and the curl line written, which
 * is cheap; the API client makes one per call and redacts ({@link redactEvidence}) only those a
 * test attaches. Never written anywhere as it is.
 */
export function draftEvidence(input: CurlInput & { operation?: string }, response?: AnsweredExchange, error?: string): Evidence {
  return {
    ...(input.operation ? { operation: input.operation } : {}),
    request: {
      method: input.method,
      url: input.url,
      headers: { ...input.headers },
      ...(input.body !== undefined ? { body: clip(input.body) } : {}),
      bodyBytes: input.bodyBytes,
    },
    curl: curlLine(input),
    ...(response ? {
      response: {
        status: response.status,
        headers: response.headers,
        body: clip(response.text),
        bodyBytes: response.bytes,
        durationMs: Math.round(response.durationMs * 100) / 100,
      },
    } : {}),
    ...(error ? { error } : {}),
  };
}

/** A drafted evidence with every key removed: the registered ones and credentials where they sit. */
export function redactEvidence(draft: Evidence): Evidence {
  const { request, response } = draft;
  return {
    ...(draft.operation ? { operation: draft.operation } : {}),
    request: {
      ...request,
      url: redactText(request.url),
      headers: redactHeaders(request.headers),
      ...(request.body !== undefined ? { body: redactText(request.body) } : {}),
    },
    curl: redactText(draft.curl),
    ...(response ? { response: { ...response, headers: redactHeaders(response.headers), ...(response.body !== undefined ? { body: redactText(response.body) } : {}) } } : {}),
    ...(draft.error ? { error: redactText(draft.error) } : {}),
  };
}
