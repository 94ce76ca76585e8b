import type { StreamItem } from '../../lib/types.gen.js';

/**
 * Text-generation stream items, shaped exactly as the spec lists them: `output` with
 * `input_tokens`, `output_tokens`, `text[]`; `metrics` with the four throughput and cache
 * numbers, six integer counters and `scenario`.
 */

/** Spec, Limits: "Single stream chunk | 1 MB". Counted as 10^6 bytes so that both readings of MB hold. */
export const MAX_STREAM_ITEM_BYTES = 1_000_000;

/** Room kept for an item's JSON around its text (fields, metrics, quotes). */
const ITEM_OVERHEAD = 1_000;

/** Largest text one item carries when output is split (`oversize` is a fault's wider chunk). */
export const chunkTextBytes = (oversize = false): number => (oversize ? 1_500_000 : MAX_STREAM_ITEM_BYTES - ITEM_OVERHEAD);

const tokensOf = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export function textItem(index: number, text: string, inputTokens: number, outputTokensSoFar: number, scenario: string): StreamItem {
  const outputTokens = tokensOf(text);
  return {
    output: { input_tokens: inputTokens, output_tokens: outputTokens, text: [text] },
    metrics: {
      avg_gen_throughput: 48.5,
      avg_prompt_throughput: 312.25,
      cpu_kv_cache_usage: 0,
      gpu_kv_cache_usage: Math.min(1, (outputTokensSoFar + outputTokens) / 100_000),
      input_tokens: inputTokens,
      output_tokens: outputTokensSoFar + outputTokens,
      pending: 0,
      running: 1,
      stream_index: index,
      swapped: 0,
      scenario,
    },
  };
}

/** `count` items of generated text, one token-like word per item. */
export function tokenItems(count: number, prompt: string): StreamItem[] {
  const inputTokens = tokensOf(prompt);
  const items: StreamItem[] = [];
  let sofar = 0;
  for (let i = 0; i < count; i++) {
    const item = textItem(i, `token-${i} `, inputTokens, sofar, 'stream');
    sofar = item.metrics.output_tokens;
    items.push(item);
  }
  return items;
}

let pattern = '';
/** Deterministic ASCII text of `length` characters (one shared backing string). */
function filler(length: number): string {
  if (pattern.length < length) pattern = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(Math.max(length, 2_000_000) / 27));
  return pattern.slice(0, length);
}

/** `totalBytes` of text split into items whose text is at most `pieceBytes` each. */
export function largeOutputItems(totalBytes: number, prompt: string, pieceBytes: number): StreamItem[] {
  const inputTokens = tokensOf(prompt);
  const items: StreamItem[] = [];
  let sofar = 0;
  for (let offset = 0, i = 0; offset < totalBytes; offset += pieceBytes, i++) {
    const item = textItem(i, filler(Math.min(pieceBytes, totalBytes - offset)), inputTokens, sofar, 'large-output');
    sofar = item.metrics.output_tokens;
    items.push(item);
  }
  return items;
}

const count = (v: unknown): number => (Number.isInteger(v) && (v as number) >= 0 ? v as number : 0);

/**
 * The `metrics` the platform adds to an item an outside worker posts (a worker on the official
 * library can only post `{"output": v}`, platform notes): the item's index and the token counts
 * its output reports (`input_tokens`, `output_tokens`), summed over the job's items so far.
 */
export function platformMetrics(output: unknown, index: number, outputTokensBefore: number, scenario: string): StreamItem['metrics'] {
  const o = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  const outputTokens = outputTokensBefore + count(o.output_tokens);
  return {
    avg_gen_throughput: 48.5, avg_prompt_throughput: 312.25, cpu_kv_cache_usage: 0, gpu_kv_cache_usage: Math.min(1, outputTokens / 100_000),
    input_tokens: count(o.input_tokens), output_tokens: outputTokens, pending: 0, running: 1, stream_index: index, swapped: 0, scenario,
  };
}
