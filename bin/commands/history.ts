import { rmSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import { ConfigError } from '../../lib/errors.js';
import { buildHistory } from '../../reports/history/model.js';
import { renderHistory } from '../../reports/render/history-html.js';
import { writeScrubbed } from '../../reports/write.js';
import { readHistoryFolder } from '../../run/saved-report.js';

export interface HistoryOptions {
  dir: string;
  outDir: string;
  /** Keep only the newest N runs: older report files are deleted from the folder. */
  keep?: number;
}

const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

/** Parses `--keep N` (a positive integer). */
export function parseKeep(text: string): number {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(Number.isInteger(n) && n >= 1)) throw new ConfigError(`--keep must be a positive integer, got "${text}"`, '--keep');
  return n;
}

/**
 * `cpc report --history DIR`: every report of the folder is read and checked first (one of
 * another target or unreadable stops the command, deleting nothing); then `--keep N` deletes
 * the report files older than the newest N runs; then the page is written.
 */
export function historyCommand(o: HistoryOptions): number {
  const { target, reports } = readHistoryFolder(o.dir);
  const cut = o.keep !== undefined ? Math.max(0, reports.length - o.keep) : 0;
  const pruned = reports.slice(0, cut);
  for (const r of pruned) rmSync(r.path);
  if (pruned.length) process.stdout.write(`Deleted ${pruned.length} report(s) older than the newest ${o.keep}: ${pruned.map((r) => r.file).join(', ')}\n`);
  const model = buildHistory(reports.slice(cut));
  const page = writeScrubbed(o.outDir, 'history.html', renderHistory(model));
  const moved = model.rules.filter((r) => r.changes.length > 0).length;
  const unstable = model.rules.filter((r) => r.unstable).map((r) => r.id);
  process.stdout.write(`History of ${target}: ${model.runs.length} run(s) from ${model.runs[0]!.startedAt} to ${model.runs.at(-1)!.startedAt}; ${moved} rule(s) changed verdict, ${unstable.length} unstable${unstable.length ? ` (${unstable.join(', ')})` : ''}.\nHistory: ${shown(page)}\n`);
  return 0;
}
