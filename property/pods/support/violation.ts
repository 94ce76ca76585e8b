import type { Finding } from '../../../contract/support/rules.js';

/**
 * A property run found the target breaking rules: thrown inside a fast-check predicate so the
 * run fails, shrinks and reports the counterexample; the message names every rule broken.
 */
export class PropertyViolation extends Error {
  readonly code = 'CPC_PROPERTY_VIOLATION';
  constructor(readonly findings: readonly Finding[]) {
    super(findings.map((f) => `[${f.rule}] ${f.message}`).join('\n'));
    this.name = 'PropertyViolation';
  }
}

/** Throws a {@link PropertyViolation} when there are findings. */
export function holds(...lists: readonly (readonly Finding[])[]): void {
  const findings = lists.flat();
  if (findings.length > 0) throw new PropertyViolation(findings);
}
