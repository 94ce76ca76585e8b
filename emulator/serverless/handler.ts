import { largeOutputs, tokenOutputs } from './stream-items.js';

/**
 * The conformance handler: what a job does, chosen by its `input` (HANDLER.md is the protocol;
 * `worker/handler.py` is the same handler on the platform's official worker library, and gives
 * the same answers). The emulator runs the plan on the virtual clock: sleep, then yield the
 * values (one per `chunkMs`), then end. A completed job's output is the list of the values.
 */
export type PlanEnd =
  | { kind: 'complete'; output: unknown[] }
  | { kind: 'fail'; error: string }
  | { kind: 'timeout' };

export interface Plan {
  sleepMs: number;
  chunkMs: number;
  /** The values the handler yields, in order (each becomes a stream item's `output`). */
  yields: unknown[];
  end: PlanEnd;
}

/** Inclusive bounds of the numeric protocol fields. */
export const PROTOCOL_LIMITS = {
  sleepMs: [0, 86_400_000],
  chunkMs: [0, 3_600_000],
  stream: [1, 10_000],
  outputBytes: [1, 32_000_000],
} as const;

type NumericField = keyof typeof PROTOCOL_LIMITS;

function integerField(input: Record<string, unknown>, key: NumericField, problems: string[]): number | undefined {
  const value = input[key];
  if (value === undefined) return undefined;
  const [min, max] = PROTOCOL_LIMITS[key];
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    problems.push(`${key} must be an integer from ${min} to ${max}`);
    return undefined;
  }
  return value as number;
}

/**
 * Plans one attempt of a job. A protocol value the handler cannot use fails the job (as a
 * deployed handler would raise), it never refuses the request: `input` is handler-defined.
 */
export function planJob(input: Record<string, unknown>, pieceBytes: number): Plan {
  const problems: string[] = [];
  const sleepMs = integerField(input, 'sleepMs', problems) ?? 0;
  const chunkMs = integerField(input, 'chunkMs', problems) ?? 0;
  const stream = integerField(input, 'stream', problems);
  const outputBytes = integerField(input, 'outputBytes', problems);
  if (input.fail !== undefined && (typeof input.fail !== 'string' || input.fail === '')) problems.push('fail must be a non-empty string (the error message)');
  if (input.timeout !== undefined && typeof input.timeout !== 'boolean') problems.push('timeout must be a boolean');
  if (input.prompt !== undefined && typeof input.prompt !== 'string') problems.push('prompt must be a string');
  // On the library a yielded value with a non-empty `error` fails the job: an echo could not carry it.
  if (input.error !== undefined) problems.push('error is reserved (a yielded error fails the job)');
  if (stream !== undefined && outputBytes !== undefined) problems.push('give stream or outputBytes, not both');
  if (problems.length) {
    return { sleepMs: 0, chunkMs: 0, yields: [], end: { kind: 'fail', error: `conformance handler: ${problems.join('; ')}` } };
  }

  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  // A plain job yields its input once.
  const yields: unknown[] = stream !== undefined ? tokenOutputs(stream, prompt)
    : outputBytes !== undefined ? largeOutputs(outputBytes, prompt, pieceBytes)
    : [input];
  const end: PlanEnd = input.timeout === true ? { kind: 'timeout' }
    : typeof input.fail === 'string' ? { kind: 'fail', error: input.fail }
    : { kind: 'complete', output: yields };
  return { sleepMs, chunkMs, yields, end };
}
