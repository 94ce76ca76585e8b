/**
 * Mutation testing in the report: `npm run mutation` runs StrykerJS over the emulator's
 * validation and state-machine code with the contract and property suites as its tests and
 * writes Stryker's JSON report to `reports/out/mutation/mutation.json`; the report keeps the
 * counts, the score and every surviving mutant, each either listed as equivalent (with why,
 * from `mutation/equivalent.json`) or unresolved.
 */

/** A surviving mutant: where it is, what Stryker changed. */
export interface MutantRef {
  /** Stryker's id in that run (ids change from run to run). */
  id: string;
  /** Path relative to the project root. */
  file: string;
  line: number;
  mutator: string;
  /** The code Stryker put in place of the original. */
  replacement?: string;
}

/** A survivor no test can kill: it changes nothing the spec rules on. */
export interface EquivalentMutant extends MutantRef { reason: string }

export interface MutationSection {
  /** Stryker's mutation score in percent: detected (killed + timeout) over killed + timeout + survived + no coverage. */
  score: number;
  /** The score with the listed equivalent survivors left out of the denominator. */
  scoreExcludingEquivalent: number;
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  /** Mutants tested: killed + timeout + survived + no coverage. */
  total: number;
  /** Mutants the configuration ignores on purpose (fault switches, problem wording, out of scope). */
  ignored: number;
  /** When Stryker wrote its report. */
  generatedAt: string;
  /** Where the report came from, relative to the project root when inside it. */
  file: string;
  equivalent: EquivalentMutant[];
  /** Survivors neither killed nor listed as equivalent: gaps of the suite. */
  unresolved: MutantRef[];
}
