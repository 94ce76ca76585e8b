/**
 * A baseline of known differences: a target's expectations file listing, per rule, the
 * verdict it is expected to have and a note saying why. Known differences are data, never
 * `test.skip`. A run against a baseline fails on ANY change: a new failure, and also a new
 * pass (so the file stays true); `--update-baseline` rewrites the file on purpose.
 *
 * A rule the file does not list is expected to conform: `pass`, or `observed` for an
 * OBSERVED rule. A listed rule must have exactly the listed verdict. An entry whose rule
 * is no longer in the catalog is a change too (`stale-entry`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../lib/errors.js';
import type { BaselineChange, BaselineStatus, ConformanceReport, RuleResult, Verdict } from './model.js';
import { validateBaseline } from './validate.js';
import { redactValue } from '../lib/redact.js';

export interface BaselineEntry { verdict: Verdict; note: string }
export interface BaselineFile { $schema?: string; description?: string; target?: string; updatedAt?: string; rules: Record<string, BaselineEntry> }

const CONFORMING: readonly Verdict[] = ['pass', 'observed'];
const isConforming = (v: Verdict): boolean => CONFORMING.includes(v);

/** Reads and validates an expectations file; a missing or invalid file is a configuration error (exit 2). */
export function readBaseline(path: string, options: { allowMissing?: boolean } = {}): BaselineFile {
  if (!existsSync(path)) {
    if (options.allowMissing) return { rules: {} };
    throw new ConfigError(`baseline file not found: ${path} (create it with --update-baseline)`, 'baseline');
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`baseline file ${path} is not JSON: ${(e as Error).message}`, 'baseline');
  }
  const check = validateBaseline(doc);
  if (!check.valid) throw new ConfigError(`baseline file ${path} is invalid: ${check.issues.join('; ')}`, 'baseline');
  return doc as BaselineFile;
}

function kindOf(expected: Verdict | 'conforming', actual: Verdict): BaselineChange['kind'] {
  if (actual === 'fail') return 'new-failure';
  if (isConforming(actual) && (expected === 'conforming' || !isConforming(expected))) return 'new-pass';
  return 'changed';
}

/** Compares every rule of the report with the file: the changes, and each rule's baseline view. */
export function compareBaseline(report: ConformanceReport, file: BaselineFile): { changes: BaselineChange[]; perRule: Map<string, NonNullable<RuleResult['baseline']>> } {
  const changes: BaselineChange[] = [];
  const perRule = new Map<string, NonNullable<RuleResult['baseline']>>();
  for (const rule of report.rules) {
    const entry = file.rules[rule.id];
    const expected: Verdict | 'conforming' = entry ? entry.verdict : 'conforming';
    const ok = entry ? entry.verdict === rule.verdict : isConforming(rule.verdict);
    perRule.set(rule.id, { expected, status: ok ? 'as-expected' : 'changed', ...(entry ? { note: entry.note } : {}) });
    if (!ok) changes.push({ rule: rule.id, expected, actual: rule.verdict, kind: kindOf(expected, rule.verdict), ...(entry ? { note: entry.note } : {}) });
  }
  const known = new Set(report.rules.map((r) => r.id));
  for (const [id, entry] of Object.entries(file.rules)) {
    if (!known.has(id)) changes.push({ rule: id, expected: entry.verdict, actual: 'absent', kind: 'stale-entry', note: entry.note });
  }
  return { changes, perRule };
}

/** The report with its baseline status and each rule's baseline view filled in. */
export function applyBaseline(report: ConformanceReport, file: BaselineFile, path: string, updated = false): ConformanceReport {
  const { changes, perRule } = compareBaseline(report, file);
  const status: BaselineStatus = { file: path, updated, matched: changes.length === 0, entries: Object.keys(file.rules).length, changes };
  return { ...report, rules: report.rules.map((r) => ({ ...r, baseline: perRule.get(r.id)! })), baseline: status };
}

function defaultNote(rule: RuleResult): string {
  if (rule.verdict === 'fail') return `fails: ${(rule.failures?.[0]?.message ?? 'failed').split('\n').find((l) => l.trim()) ?? 'failed'}`.slice(0, 300);
  if (rule.verdict === 'skip') return `skipped: ${(rule.skipReasons ?? ['skipped']).join('; ')}`.slice(0, 300);
  if (rule.verdict === 'blocked') return `blocked: ${[...new Set((rule.blockedReasons ?? []).map((b) => b.reason))].join('; ') || 'not reached'}`.slice(0, 300);
  if (rule.verdict === 'untested') return 'no test verifies this rule yet';
  return `recorded as ${rule.verdict}`;
}

/**
 * The file rewritten from this run: every rule that does not conform, with its verdict and
 * its old note (or a note saying what the run saw). Entries of rules that now conform are
 * dropped, since the difference they explained is gone.
 */
export function updatedBaseline(report: ConformanceReport, old: BaselineFile): BaselineFile {
  const rules: Record<string, BaselineEntry> = {};
  for (const rule of [...report.rules].sort((a, b) => a.id.localeCompare(b.id))) {
    if (isConforming(rule.verdict)) continue;
    const previous = old.rules[rule.id];
    rules[rule.id] = { verdict: rule.verdict, note: previous && previous.verdict === rule.verdict ? previous.note : defaultNote(rule) };
  }
  return {
    ...(old.$schema ? { $schema: old.$schema } : {}),
    description: old.description ?? 'Known differences of this target from the Compute Platform API spec (cpc conformance --baseline). Rules not listed are expected to conform.',
    ...(old.target ? { target: old.target } : {}),
    updatedAt: report.run.finishedAt,
    rules,
  };
}

/** Writes a baseline file, keys scrubbed (notes quote failure messages). */
export function writeBaseline(path: string, file: BaselineFile): void {
  writeFileSync(path, JSON.stringify(redactValue(file), null, 2) + '\n');
}
