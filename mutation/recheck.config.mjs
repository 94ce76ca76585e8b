// `npm run mutation:recheck`: the project's Stryker configuration, narrowed to the mutant
// locations bin/commands/mutation-recheck.ts passes in CPC_RECHECK_MUTATE (one
// `file:line:column-line:column` range per line), with its own JSON report.
import base from '../stryker.config.mjs';

const ranges = (process.env.CPC_RECHECK_MUTATE ?? '').split('\n').filter(Boolean);
if (ranges.length === 0) throw new Error('CPC_RECHECK_MUTATE names no mutant location (run npm run mutation:recheck)');

export default {
  ...base,
  mutate: ranges,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/out/mutation/recheck.json' },
};
