import type { ApiResult } from '../../lib/client/api.js';
import { validate, type ValidationIssue } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';
import { MIB, STREAM_CHUNK_MB } from '../../lib/iso/spec-constants.js';

export const STREAM_RULES = {
  shape: 'STREAM.ITEM.SHAPE',
  output: 'STREAM.ITEM.TEXT_GEN_OUTPUT',
  metrics: 'STREAM.ITEM.TEXT_GEN_METRICS',
  maxChunk: 'STREAM.CHUNK.MAX_1MB',
  items: 'STREAM.RESPONSE.ITEMS',
} as const;

/**
 * Spec, Limits: "Single stream chunk | 1 MB". Checked as 1 MiB (1,048,576 bytes of the item's
 * JSON), the larger reading, so a target is failed only when no reading of "1 MB" allows it.
 */
export const MAX_CHUNK_BYTES = STREAM_CHUNK_MB * MIB;

function ruleOf(issue: ValidationIssue): string {
  if (issue.path.startsWith('/output/')) return STREAM_RULES.output;
  if (issue.path.startsWith('/metrics/')) return STREAM_RULES.metrics;
  return STREAM_RULES.shape;
}

/**
 * Text-generation stream items (schemas/stream-item.schema.json): an `output` object and a
 * `metrics` object, each with the spec's fields and types; every item at most 1 MB.
 */
export function streamItemsConformance(items: readonly unknown[], where: string): Finding[] {
  const findings: Finding[] = [];
  items.forEach((item, i) => {
    const result = validate('stream-item', item);
    if (!result.valid) {
      for (const issue of result.issues) findings.push({ rule: ruleOf(issue), message: `${where} item ${i}: ${issue.path || '(root)'} ${issue.message}` });
    }
    const bytes = Buffer.byteLength(JSON.stringify(item));
    if (bytes > MAX_CHUNK_BYTES) findings.push({ rule: STREAM_RULES.maxChunk, message: `${where} item ${i} is ${bytes} bytes, over 1 MB` });
  });
  return findings;
}

/**
 * The items of a /stream answer: the spec says "Array of stream items"; the live platform
 * wraps them as `{status, stream: [...]}` (platform notes). Either is accepted; anything else
 * breaks STREAM.RESPONSE.ITEMS.
 */
export function streamItemsOf(res: ApiResult): { items: unknown[]; findings: Finding[] } {
  const body = res.body as unknown;
  if (Array.isArray(body)) return { items: body, findings: [] };
  const stream = (body as { stream?: unknown } | undefined)?.stream;
  if (Array.isArray(stream)) return { items: stream, findings: [] };
  return { items: [], findings: [{ rule: STREAM_RULES.items, message: `${res.operation} → ${res.status}: no array of stream items in ${res.text.slice(0, 200) || '(an empty body)'}`, exchange: res }] };
}
