import type { StreamItem } from '../../lib/types.gen.js';

/**
 * Stream items: the text-generation values the conformance handler yields (HANDLER.md) and the
 * item the platform makes of each. A worker on the official library posts only `{output: v}`, so
 * the spec's `metrics` object is the platform's to add (HANDLER.md, "Who adds metrics").
 */

/** Spec, Limits: "Single stream chunk | 1 MB". Counted as 10^6 bytes so that both readings of MB hold. */
export const MAX_STREAM_ITEM_BYTES = 1_000_000;

/** Room kept for an item's JSON around its text (fields, metrics, quotes). */
const ITEM_OVERHEAD = 1_000;

/** Largest text one item carries when output is split (`oversize` is a fault's wider chunk). */
export const chunkTextBytes = (oversize = false): number => (oversize ? 1_500_000 : MAX_STREAM_ITEM_BYTES - ITEM_OVERHEAD);

/** A text's tokens: a quarter of its characters (UTF-16 code units), rounded up, at least one. */
const tokensOf = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** What a text-generation handler yields for one piece of text. */
export interface TextOutput { input_tokens: number; output_tokens: number; text: string[] }

const textOutput = (text: string, inputTokens: number): TextOutput => ({ input_tokens: inputTokens, output_tokens: tokensOf(text), text: [text] });

/** `count` values of generated text, one token-like word each. */
export function tokenOutputs(count: number, prompt: string): TextOutput[] {
  const inputTokens = tokensOf(prompt);
  return Array.from({ length: count }, (_, i) => textOutput(`token-${i} `, inputTokens));
}

let pattern = '';
/** Deterministic ASCII text of `length` characters (one shared backing string). */
function filler(length: number): string {
  if (pattern.length < length) pattern = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(Math.max(length, 2_000_000) / 27));
  return pattern.slice(0, length);
}

/** `totalBytes` of text split into values whose text is at most `pieceBytes` each. */
export function largeOutputs(totalBytes: number, prompt: string, pieceBytes: number): TextOutput[] {
  const inputTokens = tokensOf(prompt);
  const values: TextOutput[] = [];
  for (let offset = 0; offset < totalBytes; offset += pieceBytes) values.push(textOutput(filler(Math.min(pieceBytes, totalBytes - offset)), inputTokens));
  return values;
}

const integerField = (value: unknown, key: string): number => {
  const n = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return Number.isInteger(n) ? n as number : 0;
};

/**
 * The platform's stream item for one yielded value: the value as `output`, with the `metrics` the
 * spec lists (its place in the stream, the value's `input_tokens`, `output_tokens` summed over the
 * stream so far from `outputTokensBefore`; 0 where a value has none). The item's
 * `metrics.output_tokens` is the next item's `outputTokensBefore`.
 */
export function streamItem(output: unknown, index: number, outputTokensBefore: number): StreamItem {
  const sofar = outputTokensBefore + integerField(output, 'output_tokens');
  return {
    output: output as StreamItem['output'],
    metrics: {
      avg_gen_throughput: 48.5,
      avg_prompt_throughput: 312.25,
      cpu_kv_cache_usage: 0,
      gpu_kv_cache_usage: Math.min(1, sofar / 100_000),
      input_tokens: integerField(output, 'input_tokens'),
      output_tokens: sofar,
      pending: 0,
      running: 1,
      stream_index: index,
      swapped: 0,
      scenario: 'stream',
    },
  };
}

/** The platform's stream items for a job's yielded values, in order ({@link streamItem}). */
export function streamItems(values: readonly unknown[]): StreamItem[] {
  const items: StreamItem[] = [];
  for (const value of values) items.push(streamItem(value, items.length, items.at(-1)?.metrics.output_tokens ?? 0));
  return items;
}
