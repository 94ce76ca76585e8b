import { parseArgs } from 'node:util';
import { basename, resolve } from 'node:path';
import { ConfigError } from '../../lib/errors.js';
import { diffReports } from '../../reports/diff.js';
import { diffMarkdown } from '../../reports/render/diff-markdown.js';
import { diffHtml } from '../../reports/render/diff-html.js';
import { writeScrubbed } from '../../reports/write.js';
import { PROJECT_ROOT, defaultOutDir } from '../../run/paths.js';
import { loadReport } from '../../run/saved-report.js';
import { DIFF_USAGE } from '../usage.js';

/** `cpc diff A B`: every rule whose verdict or observed value differs. */
export function diffCommand(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  if (parsed.values.help) {
    process.stdout.write(DIFF_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 2) throw new ConfigError(`cpc diff takes two reports, got ${parsed.positionals.length}\n${DIFF_USAGE}`);
  const [pathA, pathB] = parsed.positionals.map((p) => resolve(p)) as [string, string];
  const a = loadReport(pathA);
  const b = loadReport(pathB);
  const labelA = basename(pathA) === basename(pathB) ? pathA : basename(pathA);
  const labelB = basename(pathA) === basename(pathB) ? pathB : basename(pathB);
  const diff = diffReports(a, b, [labelA, labelB]);
  const outDir = resolve(parsed.values.out ?? defaultOutDir('diff'));
  const md = diffMarkdown(diff);
  const files = [writeScrubbed(outDir, 'diff.md', md), writeScrubbed(outDir, 'diff.html', diffHtml(diff))];
  process.stdout.write(`${diff.identical ? 'The reports agree on every rule' : `${diff.rules.length} rule(s) differ`} (${diff.compared} compared).\nDiff: ${files.map((f) => f.replace(PROJECT_ROOT + '/', '')).join(', ')}\n`);
  return diff.identical ? 0 : 1;
}
