import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../lib/errors.js';
import { defaultOutDir } from '../paths.js';
import { mergeReports } from '../../reports/merge.js';
import { loadReport } from './saved-report.js';
import { exitCodeOf, publish } from './publish.js';
import { REPORT_USAGE } from '../usage.js';

/** `cpc report`: every format again from a saved JSON report, optionally against a baseline. */
export function reportCommand(argv: string[]): number {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: { from: { type: 'string' }, out: { type: 'string' }, baseline: { type: 'string' }, 'update-baseline': { type: 'boolean' }, merge: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true }));
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(REPORT_USAGE);
    return 0;
  }
  if (values['update-baseline'] && !values.baseline) throw new ConfigError('--update-baseline needs --baseline FILE');
  if (values.merge) {
    if (values.from) throw new ConfigError('--merge takes the partial reports as arguments, not --from');
    if (positionals.length === 0) throw new ConfigError('--merge needs the partial reports of every shard: cpc report --merge A.json B.json ...');
    const files = positionals.map((p) => resolve(p));
    const merged = mergeReports(files.map((f) => loadReport(f)), positionals);
    const baseline = values.baseline ? { path: resolve(values.baseline), update: values['update-baseline'] === true } : undefined;
    const { report: final } = publish(merged, resolve(values.out ?? defaultOutDir()), baseline);
    return exitCodeOf(final, false);
  }
  if (positionals.length) throw new ConfigError(`unexpected argument "${positionals[0]}" (cpc report --from FILE, or cpc report --merge A.json B.json ...)`);
  const from = resolve(values.from ?? join(defaultOutDir(), 'conformance.json'));
  const saved = loadReport(from);
  const baseline = values.baseline ? { path: resolve(values.baseline), update: values['update-baseline'] === true } : undefined;
  // Against a new baseline, start from the run itself, not from the baseline view it was saved with.
  const { baseline: _old, ...rest } = saved;
  const report = baseline ? { ...rest, rules: rest.rules.map(({ baseline: _b, ...r }) => r) } : saved;
  const { report: final } = publish(report, resolve(values.out ?? dirname(from)), baseline);
  return baseline ? exitCodeOf(final, false) : 0;
}
