import { test } from '@playwright/test';
import { assertRuleIds } from '../../lib/rules.js';
import { ANNOTATION } from '../../lib/protocol.js';
import { InternalError, throwFindings, type Finding, type FindingExchange } from '../../lib/errors.js';
import { splitByAbsence } from './availability.js';
import { absencesMet, leadWith } from './exchanges.js';
import type { Creates } from '../../lib/plan.js';
import { needList, type Need } from '../../lib/needs.js';
import { inLongWaitLane, LONG_WAIT_TAG } from '../../lib/lanes.js';

export type { Finding };

/** What a test creates, for {@link rules}: `rules('POD.X', creates({ cpuPods: 1, pools: ['networkVolume'] }))`. */
export interface Declaration { readonly creates: Creates }

export const creates = (what: Creates): Declaration => ({ creates: what });

/**
 * What a test needs to run at all (lib/needs.ts), for {@link rules}: `rules('JOB.X',
 * needs('workerEndpoint'))`, or beside what it creates. Merged into the test's one declaration:
 * the fixtures skip the test without it, with its reason; preflight forecasts from it.
 */
export const needs = (...what: Need[]): Declaration => ({ creates: { needs: what } });

/** The declarations of one test as one: its creations, and every need either names. */
function merged(declared: readonly Declaration[]): Creates | undefined {
  const made = declared.filter((d) => Object.keys(d.creates).some((k) => k !== 'needs'));
  if (made.length > 1) throw new InternalError('one creates(...) declaration per test');
  if (declared.length === 0) return undefined;
  const all = [...new Set(declared.flatMap((d) => needList(d.creates.needs)))];
  return { ...(made[0]?.creates ?? {}), ...(all.length ? { needs: all } : {}) };
}

/**
 * Test details declaring the rules a test verifies: tags (`@POD.MOUNT.BOTH_KINDS_400`) for
 * `--grep`, and `rule` annotations the report reads. Unknown ids fail at load time. A
 * {@link creates} declaration among them says what the test creates on the target (lib/plan.ts):
 * a test without one creates nothing, and a creation beyond its declaration fails it. A test
 * that needs long waits also carries {@link LONG_WAIT_TAG}: a deployment run's long-wait lane
 * selects it by that tag (lib/lanes.ts).
 */
export function rules(...items: (string | Declaration)[]): { tag: string[]; annotation: { type: string; description: string }[] } {
  const ids = items.filter((i): i is string => typeof i === 'string');
  const declared = items.filter((i): i is Declaration => typeof i !== 'string');
  assertRuleIds(ids);
  const declaration = merged(declared);
  return {
    tag: [...ids.map((id) => `@${id}`), ...(declaration && inLongWaitLane(declaration) ? [LONG_WAIT_TAG] : [])],
    annotation: [...ids.map((id) => ({ type: ANNOTATION.rule, description: id })), ...(declaration ? [{ type: ANNOTATION.creates, description: JSON.stringify(declaration) }] : [])],
  };
}

/** The declaration among a test's annotations (none: it creates nothing). */
export function declarationOf(annotations: readonly { type: string; description?: string }[]): Creates {
  const a = annotations.find((x) => x.type === ANNOTATION.creates);
  return a?.description ? JSON.parse(a.description) as Creates : {};
}

/** Records what the target does for an OBSERVED rule (where the spec says "not shown"). */
export function observe(rule: string, value: unknown): void {
  assertRuleIds([rule]);
  test.info().annotations.push({ type: ANNOTATION.observed, description: JSON.stringify({ rule, value }) });
}

/**
 * Records that this test could not check `rule` on this target, and why (no unlisted action to
 * send, no listed pod to read): the report counts the rule `skip` with the reason, never `pass`,
 * whatever the test's other rules do. A rule a test declares is a claim that it checks it; this
 * is how a branch that cannot make the check says so instead of carrying on as if it had.
 */
export function unchecked(rule: string, reason: string): void {
  assertRuleIds([rule]);
  const info = test.info();
  if (!info.annotations.some((a) => a.type === ANNOTATION.rule && a.description === rule)) throw new InternalError(`unchecked(${rule}): the test does not declare that rule`);
  info.annotations.push({ type: ANNOTATION.ruleUnchecked, description: JSON.stringify({ rule, reason }) });
}

/**
 * Fails the test when there are findings: marks each rule failed for the report, then throws
 * the catalog's NonConformanceError ({@link throwFindings}).
 */
export function conform(...lists: readonly (readonly Finding[])[]): void {
  const all = lists.flat();
  if (all.length === 0) return;
  const info = test.info();
  // A finding read from an answer that says its operation is missing is that operation's
  // finding (contract/support/availability.ts): the rule that needed the operation is blocked.
  const { kept: findings, absent } = splitByAbsence(all, absencesMet(info));
  leadWith(info, findings.flatMap((f) => (f.exchange ? [{ evidence: f.exchange.evidence, rule: f.rule }] : [])));
  if (findings.length === 0) {
    leadWith(info, all.flatMap((f) => (f.exchange ? [{ evidence: f.exchange.evidence }] : [])));
    blocked(absent.join('; '));
  }
  if (absent.length) info.annotations.push({ type: ANNOTATION.note, description: `not judged, the operation is missing: ${absent.join('; ')}` });
  for (const rule of new Set(findings.map((f) => f.rule))) info.annotations.push({ type: ANNOTATION.ruleFailed, description: rule });
  throwFindings(findings.map(({ rule, message }) => ({ rule, message })));
}

/**
 * Fails the test on one finding: for helpers that cannot go on once the target broke their own
 * rule. `exchange`: the answer that broke it (shown first in the evidence).
 */
export function breaks(rule: string, message: string, exchange?: FindingExchange): never {
  conform([{ rule, message, ...(exchange ? { exchange } : {}) }]);
  throw new InternalError('unreachable: conform throws on a finding');
}

/**
 * Blocks the test when `res` says its operation is missing (lib/client/absence.ts), naming the
 * answer: for helpers that need the operation to go on (a poll, a setup read).
 */
export function needsOperation(res: { absent?: string }): void {
  if (res.absent !== undefined) blocked(res.absent);
}

/**
 * Stops the test because of the target's circumstances, not its conformance (no GPU capacity
 * on any candidate while the same body places elsewhere, a budget reached): the test's rules
 * are reported `blocked` with this reason, never failed, and the test is skipped.
 */
export function blocked(reason: string): never {
  const info = test.info();
  info.annotations.push({ type: ANNOTATION.blocked, description: reason });
  test.skip(true, `blocked: ${reason}`);
  throw new InternalError('unreachable: test.skip throws');
}

/** Convenience: a finding when `ok` is false; `exchange`: the answer it was read from. */
export const must = (ok: boolean, rule: string, message: string, exchange?: FindingExchange): Finding[] => (ok ? [] : [{ rule, message, ...(exchange ? { exchange } : {}) }]);

/** `findings` with each message led by `title` (the case they were read from), for a test that judges several cases at once. */
export const titled = (title: string, findings: readonly Finding[]): Finding[] => findings.map((f) => ({ ...f, message: `${title}: ${f.message}` }));
