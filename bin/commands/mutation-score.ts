/**
 * `npm run mutation` ends here: prints the mutation score of the last Stryker run
 * (`reports/out/mutation/mutation.json`) and every survivor, equivalent (listed in
 * `mutation/equivalent.json` with a reason) or unresolved.
 *
 *   tsx bin/commands/mutation-score.ts [--report FILE] [--equivalent FILE]
 *
 * Exit code: 0 when every survivor is listed as equivalent, 1 when one is not (a gap of the
 * suite: kill it with a test or list it with a reason), 2 when there is no report to read.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CpcError } from '../../lib/errors.js';
import type { MutationSection } from '../../reports/mutation-model.js';
import { readMutationResults } from '../../reports/mutation.js';
import { PROJECT_ROOT } from '../../run/paths.js';

export const DEFAULT_MUTATION_REPORT = join(PROJECT_ROOT, 'reports', 'out', 'mutation', 'mutation.json');
export const EQUIVALENT_LIST = join(PROJECT_ROOT, 'mutation', 'equivalent.json');

/** The lines the command prints for a mutation section. */
export function scoreText(m: MutationSection): string {
  const lines = [
    `Mutation score: ${m.score.toFixed(2)}% (${m.killed} killed + ${m.timeout} timed out of ${m.total}; ${m.survived} survived, ${m.noCoverage} without coverage; ${m.ignored} ignored by configuration)`,
    `Without the ${m.equivalent.length} equivalent survivor(s): ${m.scoreExcludingEquivalent.toFixed(2)}%`,
  ];
  if (m.unresolved.length) {
    lines.push(`${m.unresolved.length} unresolved survivor(s): kill each with a test or list it in mutation/equivalent.json with a reason:`);
    for (const s of m.unresolved) lines.push(`  #${s.id} ${s.file}:${s.line} ${s.mutator} → ${JSON.stringify(s.replacement ?? '')}`);
  } else {
    lines.push('Every survivor is listed as equivalent, with a reason (mutation/EQUIVALENT.md).');
  }
  return lines.join('\n');
}

export function mutationScore(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { report: { type: 'string' }, equivalent: { type: 'string' } }, strict: true });
  const report = resolve(values.report ?? DEFAULT_MUTATION_REPORT);
  const section = readMutationResults(report, resolve(values.equivalent ?? EQUIVALENT_LIST), PROJECT_ROOT);
  if (!section) {
    process.stderr.write(`mutation-score: no report at ${report}; run npm run mutation first\n`);
    return 2;
  }
  process.stdout.write(scoreText(section) + '\n');
  return section.unresolved.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exitCode = mutationScore(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`mutation-score: ${e instanceof CpcError ? e.message : String(e)}\n`);
    process.exitCode = 2;
  }
}
