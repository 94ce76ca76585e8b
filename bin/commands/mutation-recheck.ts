/**
 * `npm run mutation:recheck`: runs Stryker again on the last run's unresolved survivors only
 * (those not listed in `mutation/equivalent.json`), after tests were added to kill them, and
 * writes their new statuses into `reports/out/mutation/mutation.json`. Only mutants Stryker
 * re-ran change; the rest of the report stays as the full run left it (adding tests cannot
 * revive a killed mutant; a full `npm run mutation` re-checks everything).
 *
 * Exit code: Stryker's when it fails; 2 when there is no report; else 0.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readMutationResults } from '../../reports/mutation.js';
import { PROJECT_ROOT } from '../../run/paths.js';
import { DEFAULT_MUTATION_REPORT, EQUIVALENT_LIST } from './mutation-score.js';

interface Loc { line: number; column: number }
interface Mutant { id: string; mutatorName: string; replacement?: string; status: string; location: { start: Loc; end: Loc }; [k: string]: unknown }
interface Report { files: Record<string, { mutants: Mutant[] }>; [k: string]: unknown }

const RECHECK_REPORT = join(PROJECT_ROOT, 'reports', 'out', 'mutation', 'recheck.json');

/** Stryker's `mutate` range for a report location (report: 1-based columns; range: 0-based, inclusive). */
export const rangeOf = (file: string, { start, end }: Mutant['location']): string =>
  `${file}:${start.line}:${start.column - 1}-${end.line}:${Math.max(0, end.column - 1)}`;

const sameMutant = (a: Mutant, b: Mutant): boolean => a.mutatorName === b.mutatorName && (a.replacement ?? '') === (b.replacement ?? '')
  && a.location.start.line === b.location.start.line && a.location.start.column === b.location.start.column
  && a.location.end.line === b.location.end.line && a.location.end.column === b.location.end.column;

/** Writes the re-run statuses of `rechecked` into `full` (in place); answers [updated, now detected]. */
export function mergeRecheck(full: Report, rechecked: Report, ids: ReadonlySet<string>): [number, number] {
  let updated = 0, detected = 0;
  for (const [file, { mutants }] of Object.entries(full.files)) {
    const again = rechecked.files[file]?.mutants ?? [];
    mutants.forEach((m, i) => {
      if (!ids.has(`${file}#${m.id}`)) return;
      const fresh = again.find((r) => sameMutant(r, m));
      if (!fresh) return;
      mutants[i] = { ...fresh, id: m.id };
      updated++;
      if (fresh.status === 'Killed' || fresh.status === 'Timeout') detected++;
    });
  }
  return [updated, detected];
}

function main(): number {
  const section = readMutationResults(DEFAULT_MUTATION_REPORT, EQUIVALENT_LIST, PROJECT_ROOT);
  if (!section) {
    process.stderr.write(`cpc: no mutation report at ${DEFAULT_MUTATION_REPORT}: run npm run mutation first\n`);
    return 2;
  }
  const full = JSON.parse(readFileSync(DEFAULT_MUTATION_REPORT, 'utf8')) as Report;
  const ids = new Set(section.unresolved.map((u) => `${u.file}#${u.id}`));
  if (ids.size === 0) {
    process.stdout.write('No unresolved survivor to re-check.\n');
    return 0;
  }
  const ranges = Object.entries(full.files).flatMap(([file, { mutants }]) => mutants.filter((m) => ids.has(`${file}#${m.id}`)).map((m) => rangeOf(file, m.location)));
  process.stdout.write(`Re-checking ${ids.size} unresolved survivor(s) at ${new Set(ranges).size} location(s).\n`);
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', 'mutation/recheck.config.mjs'], {
    cwd: PROJECT_ROOT, stdio: 'inherit', env: { ...process.env, CPC_RECHECK_MUTATE: [...new Set(ranges)].join('\n') },
  });
  if (run.status !== 0 || !existsSync(RECHECK_REPORT)) return run.status ?? 1;
  const [updated, detected] = mergeRecheck(full, JSON.parse(readFileSync(RECHECK_REPORT, 'utf8')) as Report, ids);
  writeFileSync(DEFAULT_MUTATION_REPORT, JSON.stringify(full));
  process.stdout.write(`Re-checked ${updated} of ${ids.size}: ${detected} now detected, ${updated - detected} still survive.\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
