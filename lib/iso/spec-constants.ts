/**
 * The spec's numbers, in one place, each with the spec's words (spec/compute-platform-api.md,
 * Limits, unless said otherwise). Pure ECMAScript with no imports: k6 scripts in `load/` import
 * it as the suite does. Constraints on request bodies (`disk` minimum 1, `gpu.count` minimum 1,
 * `mounts.network` maximum 1 item, ...) live in `schemas/`, the source of types and validators,
 * and are not repeated here.
 *
 * The emulator keeps its own copies for now (emulator/serverless/params.ts, retention.ts,
 * ops-submit.ts, state/templates.ts, rate-limit.ts); `test/spec-constants.test.ts` holds them equal.
 */

/** The two readings of the spec's "MB": a payload limit holds on either (decimal 10^6, binary 2^20). */
export const MB = 1_000_000;
export const MIB = 1_048_576;

/** "Maximum payload | 20 MB | `/runsync`" and "Maximum payload | 10 MB | `/run`", in MB. */
export const PAYLOAD_LIMIT_MB = { runsync: 20, run: 10 } as const;

/**
 * "Result retention | 1 minute after completion (up to 5 minutes when the wait parameter is
 * used) | `/runsync` jobs" and "Result retention | 30 minutes after completion | `/run` jobs".
 */
export const RETENTION_MS = { runsync: 60_000, runsyncWithWait: 300_000, run: 1_800_000 } as const;

/**
 * "`wait` range | 1000 to 300000 milliseconds; it controls how long the request waits, not
 * retention | `/runsync`" and "Default wait | 90 seconds | `/runsync`".
 */
export const WAIT_MS = { min: 1000, max: 300_000, default: 90_000 } as const;

/** "Single stream chunk | 1 MB; larger output is split across chunks | `/stream`", in MB. */
export const STREAM_CHUNK_MB = 1;

/**
 * "Template deletion delay | up to 2 minutes after last use | `deleteTemplate`" (Templates, rule
 * 2: "deletion can take up to 2 minutes after the template's most recent use").
 */
export const TEMPLATE_DELETION_DELAY_MS = 120_000;

/**
 * "Rate limiting is per user, with three windows named `minute`, `hour`, `day`", in the order
 * the headers list them; `w` is "window length `w` in seconds", so each name fixes its length.
 */
export const RATE_WINDOWS = ['minute', 'hour', 'day'] as const;
export type RateWindow = (typeof RATE_WINDOWS)[number];
export const RATE_WINDOW_SECONDS: Readonly<Record<RateWindow, number>> = { minute: 60, hour: 3600, day: 86400 };

/**
 * OBSERVED, not spec: "The quota values per window: not shown." The live platform's published
 * example (spec/platform-notes.md: `RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600,
 * "day";q=50000;w=86400`). Never a MUST: it sizes runs and the emulator's deployment-like worlds.
 */
export const LIVE_QUOTAS: Readonly<Record<RateWindow, number>> = { minute: 60, hour: 3000, day: 50000 };
