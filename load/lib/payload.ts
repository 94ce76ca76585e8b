/**
 * Payload sizes for the limit scenario (spec, Limits: "Maximum payload | 20 MB | `/runsync`",
 * "10 MB | `/run`"). The spec does not say whether MB is 10^6 or 2^20 bytes, so a body the
 * target must accept stays under the decimal reading, a body it must refuse goes over the
 * binary one, and a body between the two readings is sent to record which one the target uses.
 * Pure ECMAScript.
 */
import { MB, MIB } from '../../lib/iso/spec-constants.ts';
export interface LimitSizes {
  /** Under `limitMb` decimal megabytes: every reading accepts it. */
  accept: number;
  /** Between the two readings: accepted means the target reads MB as 2^20 bytes. */
  between: number;
  /** Over `limitMb` binary megabytes: every reading refuses it. */
  refuse: number;
}

/** The three sizes for a limit of `limitMb` MB: (limit - 0.5) MB, halfway between limit MB and limit MiB, (limit + 0.5) MiB. */
export function limitSizes(limitMb: number): LimitSizes {
  return { accept: (limitMb - 0.5) * MB, between: Math.round((limitMb * MB + limitMb * MIB) / 2), refuse: (limitMb + 0.5) * MIB };
}

const HEAD = '{"input":{"stream":1,"pad":"';
const TAIL = '"}}';

/**
 * A job body of exactly `bytes` bytes (ASCII). The conformance handler streams one small item
 * (`stream: 1`), so an accepted body is not echoed back (a plain job echoes its input).
 */
export function jobBody(bytes: number): string {
  const pad = bytes - HEAD.length - TAIL.length;
  if (pad < 0) throw new RangeError(`a job body cannot be smaller than ${HEAD.length + TAIL.length} bytes`);
  return HEAD + 'x'.repeat(pad) + TAIL;
}

/** How the target read "MB", from whether it accepted the body between the two readings. */
export function readingOf(betweenAccepted: boolean): 'binary (2^20 bytes)' | 'decimal (10^6 bytes)' {
  return betweenAccepted ? 'binary (2^20 bytes)' : 'decimal (10^6 bytes)';
}
