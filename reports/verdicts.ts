/**
 * From raw test records to outcomes, and from outcomes to one verdict per rule. The verdict
 * table (tested in test/reports-verdicts.test.ts):
 *
 * | a test that declares the rule ...                                  | counts as                 |
 * |--------------------------------------------------------------------|---------------------------|
 * | failed, and a check attributed the failure to this rule            | fail                      |
 * | failed, attributed to other rules only                             | blocked by those rules    |
 * | failed without attributing it (setup, a helper's plain error)      | blocked by the error      |
 * | recorded it unchecked (`unchecked`), and no check failed it          | skip, with that reason    |
 * | passed                                                             | pass                      |
 * | skipped because the target's circumstances stopped it (`blocked`)  | blocked, with the reason  |
 * | skipped / interrupted / never started                              | skip, with the reason     |
 *
 * A failed test fails exactly the rules its findings name (`rule-failed` annotations), which
 * may include rules it does not declare (a helper's own rule); it never fails a rule it did not
 * check. A rule's verdict: `fail` if any test fails it; else `observed` for an OBSERVED rule
 * with observations; else `pass` if any test passed it (one test verified it; the others'
 * blocks are then no news about this rule); else `blocked` (with every reason) if a test was
 * stopped before checking it; else `skip` (with every reason); `untested` when no test
 * declares it. A failed test still makes the run non-conformant (reports/build.ts), so a
 * blocked rule never hides a failure.
 */
import type { Rule } from '../lib/rules.js';
import type { BlockedReason, Observation, RuleResult, TestOutcome, Verdict } from './model.js';
import type { RawPlannedTest, RawTestResult } from './raw.js';
import { suiteOfFile } from '../lib/suites.js';
import { exchangesKept } from '../lib/evidence.js';

/** A test's kind: its suite, by its file (one project runs both suites in `cpc conformance`), else its project's name. */
const kindOf = (project: string, file: string): TestOutcome['kind'] => suiteOfFile(file) ?? (project === 'contract' || project === 'property' || project === 'load' ? project : 'other');
/** A test's title with its describe blocks (`outer › inner › test`). */
export const titleOf = (t: { title: string; titlePath: string[] }): string => [...t.titlePath.slice(0, -1), t.title].filter(Boolean).join(' › ');

function statusOf(s: RawTestResult['status']): TestOutcome['status'] {
  if (s === 'passed' || s === 'skipped' || s === 'interrupted') return s;
  return 'failed'; // failed and timedOut
}

/** Passing tests keep only their last exchange: failures and observations keep all of it (lib/evidence.ts). */
function keptEvidence(r: RawTestResult, status: TestOutcome['status']): RawTestResult['evidence'] {
  if (!r.evidence?.length) return undefined;
  return r.evidence.slice(-exchangesKept(status === 'failed', r.observed.length > 0));
}

const byTitle = (a: TestOutcome, b: TestOutcome): number => a.kind.localeCompare(b.kind) || a.file.localeCompare(b.file) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id);

/**
 * Turns raw test records into outcomes (a `timedOut` test failed). Planned tests without a
 * record never started: they become `notRun`. Sorted, so two runs of the same suite list
 * their tests in the same order whatever order the workers finished in.
 */
export function toOutcomes(raw: readonly RawTestResult[], planned: readonly RawPlannedTest[] = []): TestOutcome[] {
  const seen = new Set<string>();
  const out: TestOutcome[] = raw.map((r) => {
    seen.add(r.id);
    const status = statusOf(r.status);
    const evidence = keptEvidence(r, status);
    return {
      id: r.id, kind: kindOf(r.project, r.file), title: titleOf(r), file: r.file, status, durationMs: Math.max(0, Math.round(r.durationMs)),
      rules: r.rules, failedRules: r.failedRules,
      ...(r.uncheckedRules?.length ? { unchecked: r.uncheckedRules } : {}),
      ...(r.skipReason ? { skipReason: r.skipReason } : {}),
      ...(r.blocked && status === 'skipped' ? { blocked: r.blocked } : {}),
      ...(r.error ? { error: r.error } : {}),
      ...(evidence ? { evidence } : {}),
      ...(r.property ? { property: r.property } : {}),
      ...(r.observed.length ? { observed: r.observed } : {}),
      ...(r.usage ? { requests: r.usage.requests.total } : {}),
    };
  });
  for (const p of planned) {
    if (seen.has(p.id)) continue;
    seen.add(p.id);
    out.push({ id: p.id, kind: kindOf(p.project, p.file), title: titleOf(p), file: p.file, status: 'notRun', durationMs: 0, rules: p.rules, failedRules: [] });
  }
  return out.sort(byTitle);
}

type Role = 'fail' | 'pass' | 'blocked' | 'skip';

/** What one test says about one rule (the table above). */
export function roleOf(t: TestOutcome, rule: Rule): Role {
  // A pass is earned by a check: a rule the test says it could not check is a skip, whether the
  // test passed or stopped on another rule (its own failure, named by a check, still fails it).
  if (t.unchecked?.some((u) => u.rule === rule.id) && !t.failedRules.includes(rule.id)) return 'skip';
  if (t.status === 'passed') return 'pass';
  if (t.status === 'failed') return t.failedRules.includes(rule.id) ? 'fail' : 'blocked';
  return t.blocked !== undefined ? 'blocked' : 'skip';
}

/** Why a failed test did not reach a rule: the rules its findings named, else its error's first line. */
export function blockedReason(t: TestOutcome): BlockedReason {
  if (t.blocked !== undefined) return { test: t.id, reason: `"${t.title}" was blocked: ${t.blocked}` };
  const first = (t.error ?? '').split('\n').find((l) => l.trim())?.trim() ?? 'failed without a message';
  if (t.failedRules.length) return { test: t.id, rules: [...t.failedRules], reason: `"${t.title}" stopped when ${t.failedRules.join(', ')} failed` };
  return { test: t.id, reason: `"${t.title}" stopped before checking it: ${first}` };
}

function skipReason(t: TestOutcome, rule: string): string {
  const unchecked = t.unchecked?.find((u) => u.rule === rule);
  if (unchecked) return `"${t.title}" could not check it: ${unchecked.reason}`;
  if (t.status === 'interrupted') return 'the run was interrupted while this test ran';
  if (t.status === 'notRun') return 'not run: the run ended before this test started';
  return t.skipReason ?? 'skipped';
}

/** The verdict of each rule from the tests that declare it (see the table above). */
export function ruleResults(rules: readonly Rule[], outcomes: readonly TestOutcome[]): RuleResult[] {
  const byRule = new Map<string, TestOutcome[]>();
  for (const t of outcomes) for (const id of new Set([...t.rules, ...t.failedRules])) {
    let list = byRule.get(id);
    if (!list) byRule.set(id, (list = []));
    list.push(t);
  }
  return rules.map((rule) => {
    const tests = byRule.get(rule.id) ?? [];
    const roles = tests.map((t) => ({ t, role: roleOf(t, rule) }));
    const failures = roles.filter((x) => x.role === 'fail').map(({ t }) => ({ test: t.id, message: t.error ?? 'failed' }));
    const observed: Observation[] = tests.flatMap((t) => (t.observed ?? []).filter((o) => o.rule === rule.id).map((o) => ({ test: t.id, value: o.value })));
    let verdict: Verdict;
    if (failures.length > 0) verdict = 'fail';
    else if (rule.level === 'OBSERVED' && observed.length > 0) verdict = 'observed';
    else if (roles.some((x) => x.role === 'pass')) verdict = 'pass';
    else if (roles.some((x) => x.role === 'blocked')) verdict = 'blocked';
    else if (tests.length > 0) verdict = 'skip';
    else verdict = 'untested';
    const result: RuleResult = {
      id: rule.id, level: rule.level, surface: rule.surface, section: rule.section, statement: rule.statement,
      ...(rule.observedExpectation ? { observedExpectation: rule.observedExpectation } : {}),
      verdict, tests: tests.map((t) => t.id),
    };
    if (observed.length) result.observed = observed;
    if (verdict === 'skip') result.skipReasons = [...new Set(roles.filter((x) => x.role === 'skip').map(({ t }) => skipReason(t, rule.id)))];
    if (verdict === 'blocked') result.blockedReasons = roles.filter((x) => x.role === 'blocked').map(({ t }) => blockedReason(t));
    if (failures.length) result.failures = failures;
    return result;
  });
}
