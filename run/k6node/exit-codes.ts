/**
 * k6's process exit codes (go.k6.io/k6 errext/exitcodes), which the Node path reproduces so a
 * CI job cannot tell the runners apart by their verdict.
 */
export const EXIT = {
  ok: 0,
  /** One or more thresholds failed (also when `abortOnFail` stopped the run). */
  thresholdsFailed: 99,
  setupTimeout: 100,
  teardownTimeout: 101,
  /** Invalid options: an unknown executor, a malformed threshold, a threshold on a metric the script never defines. */
  invalidConfig: 104,
  externalAbort: 105,
  /** An exception in the init context, `setup()` or `teardown()`. */
  scriptException: 107,
  /** `exec.test.abort()`. */
  scriptAborted: 108,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
