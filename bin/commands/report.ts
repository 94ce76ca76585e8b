import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../lib/errors.js';
import { defaultOutDir } from '../../run/paths.js';
import { mergeReports } from '../../reports/merge.js';
import type { ConformanceReport } from '../../reports/model.js';
import { withChanges } from '../../reports/changes.js';
import { targetNameOf } from '../../reports/target-name.js';
import { loadPrevious, loadReport } from '../../run/saved-report.js';
import { exitCodeOfReport, publish } from '../../run/publish.js';
import { historyCommand, parseKeep } from './history.js';
import { REPORT_USAGE } from '../usage.js';

/** The report compared with `--previous` (a report, or the newest of a history folder), when given. */
function compared(report: ConformanceReport, previous: string | undefined): ConformanceReport {
  if (previous === undefined) return report;
  const { changes: _old, ...rest } = report;
  const before = loadPrevious(resolve(previous), targetNameOf(report), report.run.startedAt);
  return withChanges(rest, before.report, before.file);
}

/** `cpc report`: every format again from a saved JSON report, optionally against a baseline; or a target's history page. */
export function reportCommand(argv: string[]): number {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: {
      from: { type: 'string' }, out: { type: 'string' }, baseline: { type: 'string' }, 'update-baseline': { type: 'boolean' }, merge: { type: 'boolean' },
      previous: { type: 'string' }, history: { type: 'string' }, keep: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    }, strict: true, allowPositionals: true }));
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(REPORT_USAGE);
    return 0;
  }
  if (values.keep !== undefined && values.history === undefined) throw new ConfigError('--keep prunes a history folder: cpc report --history DIR --keep N');
  if (values.history !== undefined) {
    const other = (['from', 'merge', 'baseline', 'update-baseline', 'previous'] as const).find((k) => values[k] !== undefined);
    if (other || positionals.length) throw new ConfigError(`--history builds the history page from the folder alone; it takes no ${other ? `--${other}` : `argument "${positionals[0]}"`}`);
    return historyCommand({ dir: resolve(values.history), outDir: resolve(values.out ?? defaultOutDir()), ...(values.keep !== undefined ? { keep: parseKeep(values.keep) } : {}) });
  }
  if (values['update-baseline'] && !values.baseline) throw new ConfigError('--update-baseline needs --baseline FILE');
  if (values.merge) {
    if (values.from) throw new ConfigError('--merge takes the partial reports as arguments, not --from');
    if (positionals.length === 0) throw new ConfigError('--merge needs the partial reports of every shard: cpc report --merge A.json B.json ...');
    const files = positionals.map((p) => resolve(p));
    const merged = compared(mergeReports(files.map((f) => loadReport(f)), positionals), values.previous);
    const baseline = values.baseline ? { path: resolve(values.baseline), update: values['update-baseline'] === true } : undefined;
    const { report: final } = publish(merged, resolve(values.out ?? defaultOutDir()), baseline);
    return exitCodeOfReport(final, false);
  }
  if (positionals.length) throw new ConfigError(`unexpected argument "${positionals[0]}" (cpc report --from FILE, or cpc report --merge A.json B.json ...)`);
  const from = resolve(values.from ?? join(defaultOutDir(), 'conformance.json'));
  const saved = compared(loadReport(from), values.previous);
  const baseline = values.baseline ? { path: resolve(values.baseline), update: values['update-baseline'] === true } : undefined;
  // Against a new baseline, start from the run itself, not from the baseline view it was saved with.
  const { baseline: _old, ...rest } = saved;
  const report = baseline ? { ...rest, rules: rest.rules.map(({ baseline: _b, ...r }) => r) } : saved;
  const { report: final } = publish(report, resolve(values.out ?? dirname(from)), baseline);
  return baseline ? exitCodeOfReport(final, false) : 0;
}
