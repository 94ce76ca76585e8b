import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../lib/errors.js';
import type { ConformanceReport } from '../reports/model.js';
import { REPORT_SCHEMA_VERSION } from '../reports/model.js';
import { validateReport } from '../reports/validate.js';
import { targetNameOf } from '../reports/target-name.js';
import { withCostFiles } from '../reports/cost.js';
import type { SavedReport } from '../reports/history/model.js';

const [MAJOR, MINOR] = REPORT_SCHEMA_VERSION.split('.').map(Number) as [number, number];

/**
 * Reads a saved `conformance.json`: it must exist, be JSON, have this suite's major schema
 * version (and no newer minor one: it may hold sections this suite does not know) and
 * validate against `reports/report.schema.json`. Anything else is a configuration error
 * (exit 2) naming the file and the first problems. The cost section gets the files its run
 * left beside it (a deployment run's usage, pacing, leftovers and plan), when it has not yet.
 */
export function loadReport(path: string): ConformanceReport {
  if (!existsSync(path)) throw new ConfigError(`report not found: ${path}`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${path} is not JSON: ${(e as Error).message}`);
  }
  const version = (doc as { schemaVersion?: unknown } | null)?.schemaVersion;
  const [major, minor] = typeof version === 'string' ? version.split('.').map(Number) : [];
  if (major !== MAJOR || minor === undefined || !(minor <= MINOR)) {
    throw new ConfigError(`${path} has report schema version ${String(version)}; this suite reads ${MAJOR}.0 to ${REPORT_SCHEMA_VERSION}`);
  }
  const check = validateReport(doc);
  if (!check.valid) throw new ConfigError(`${path} is not a valid report: ${check.issues.slice(0, 5).join('; ')}`);
  return withCostFiles(doc as ConformanceReport, dirname(path));
}

const byStart = (a: SavedReport, b: SavedReport): number => a.report.run.startedAt.localeCompare(b.report.run.startedAt) || a.file.localeCompare(b.file);

/**
 * Every report of a history folder (the `*.json` files directly in it), oldest run first. An
 * unreadable file, or a report of another target than `target` (default: the newest report's),
 * is a configuration error naming the file: nothing is read past it, nothing deleted.
 */
export function readHistoryFolder(dir: string, target?: string): { target: string; reports: (SavedReport & { path: string })[] } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`history folder not found: ${dir}`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new ConfigError(`${dir} holds no report (*.json)`);
  const reports = files.map((file) => ({ file, path: join(dir, file), report: loadReport(join(dir, file)) })).sort(byStart);
  const name = target ?? targetNameOf(reports[reports.length - 1]!.report);
  const other = reports.filter((r) => targetNameOf(r.report) !== name);
  if (other.length) {
    throw new ConfigError(`${other.map((r) => r.path).join(', ')}: report(s) of another target (${[...new Set(other.map((r) => targetNameOf(r.report)))].join(', ')}); this history is of "${name}"`);
  }
  return { target: name, reports };
}

/**
 * The report to compare a run with (`--previous`): a saved report, or the newest report of a
 * history folder. It must be of the same target and older than the run it is compared with.
 */
export function loadPrevious(path: string, target: string, before?: string): { report: ConformanceReport; file: string } {
  const newest = existsSync(path) && statSync(path).isDirectory() ? readHistoryFolder(path, target).reports.at(-1)! : { file: basename(path), report: loadReport(path) };
  const { report, file } = newest;
  if (targetNameOf(report) !== target) throw new ConfigError(`${path} is a report of "${targetNameOf(report)}", not of "${target}" (--previous takes a report of the same target)`);
  if (before !== undefined && report.run.startedAt >= before) throw new ConfigError(`${path}: the previous report (${report.run.startedAt}) is not older than the report it is compared with (${before})`);
  return { report, file };
}
