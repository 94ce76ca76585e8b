/**
 * The Playwright annotation types the suite writes on a test and the raw reporter reads back
 * (reports/playwright-reporter.ts): the one vocabulary between the tests and the report.
 */
export const ANNOTATION = {
  /** A rule the test verifies (declared with `rules(...)`); description: the rule id. */
  rule: 'rule',
  /** A rule a check of the test found broken; description: the rule id. */
  ruleFailed: 'rule-failed',
  /** What the target did for an OBSERVED rule; description: JSON `{rule, value}`. */
  observed: 'observed',
  /** Playwright's own annotation of a skipped test; description: the reason. */
  skip: 'skip',
  /** A property run's record; description: JSON (seed, numRuns, path, counterexample, replay). */
  property: 'property',
  /** The emulator fault a detection-matrix repetition ran with; description: the fault id. */
  fault: 'fault',
  /** A remark for the report (a check not made on a shared target, and why). */
  note: 'note',
  /**
   * The target's circumstances stopped the test before its checks (no GPU capacity on any
   * candidate, a budget reached, a create whose answer was lost): its rules are blocked with
   * this reason, never failed, and the test is skipped. Description: the reason.
   */
  blocked: 'blocked',
  /**
   * What the test creates when the target conforms (lib/plan.ts `Creates`, declared with
   * `rules(..., creates({...}))`); description: JSON. Preflight's plan, the budgets and the
   * creation guard read it.
   */
  creates: 'creates',
  /** What the test sent and made: JSON `{requests: {total, bySurface}, created: Counts}` (lib/plan.ts). */
  usage: 'usage',
  /** How long the test waited for the target's rate limit. */
  rateLimitWait: 'rate-limit-wait',
} as const;
