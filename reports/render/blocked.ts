import type { ConformanceReport, RuleResult } from '../model.js';
import { firstLine } from './labels.js';

/** Blocked MUST rules that share a cause: another rule's failure, or the same setup error. */
export interface BlockedGroup { cause: string; rules: string[] }

/** The cause of one blocked reason, without the test's title (many tests share one cause). */
export function blockedCause(reason: { test: string; rules?: string[]; reason: string }, titles: Map<string, string>): string {
  if (reason.rules?.length) return `stopped when ${reason.rules.join(', ')} failed first`;
  const title = titles.get(reason.test);
  const text = title !== undefined && reason.reason.startsWith(`"${title}" `) ? reason.reason.slice(title.length + 3) : reason.reason;
  return firstLine(text).replace(/^stopped before checking it: /, 'setup or helper error: ').replace(/^was blocked: /, 'blocked by the target: ');
}

/**
 * The MUST rules the run could not decide, grouped by what stopped them (each rule under the
 * cause of its first blocked test), largest group first. A blocked rule is not a pass.
 */
export function blockedGroups(report: ConformanceReport): BlockedGroup[] {
  const titles = new Map(report.tests.map((t) => [t.id, t.title]));
  const groups = new Map<string, string[]>();
  const blocked = report.rules.filter((r: RuleResult) => r.level === 'MUST' && r.verdict === 'blocked');
  for (const r of blocked) {
    const first = r.blockedReasons?.[0];
    const key = first ? blockedCause(first, titles) : 'no reason recorded';
    groups.set(key, [...(groups.get(key) ?? []), r.id]);
  }
  return [...groups].map(([c, rules]) => ({ cause: c, rules })).sort((a, b) => b.rules.length - a.rules.length || a.cause.localeCompare(b.cause));
}
