/**
 * What a test's exchanges told, kept per test for its verdict: the exchanges that broke its
 * rules, in the order its findings name them (its evidence shows them first, before its last
 * exchanges, so a failed rule's evidence is the exchange its message describes), and the
 * answers it met that say an operation is missing (lib/client/absence.ts).
 */
import type { TestInfo } from '@playwright/test';
import type { Evidence } from '../../lib/evidence.js';

/** Per test: each leading exchange and the rules read from it, in the order first named. */
const LEADS = new WeakMap<TestInfo, Map<Evidence, Set<string>>>();
const ABSENCES = new WeakMap<TestInfo, string[]>();

/** Adds exchanges to lead the test's evidence (each once), with the rule read from each, if any. */
export function leadWith(info: TestInfo, entries: readonly { evidence: Evidence; rule?: string }[]): void {
  const leads = LEADS.get(info) ?? new Map<Evidence, Set<string>>();
  for (const { evidence, rule } of entries) {
    const rules = leads.get(evidence) ?? new Set<string>();
    if (rule !== undefined) rules.add(rule);
    leads.set(evidence, rules);
  }
  LEADS.set(info, leads);
}

/**
 * The evidence a test attaches: its leading exchanges (each marked with the rules read from it),
 * then its last ones (`recent`, oldest first), each once, `limit` in all. Leading exchanges
 * come first even when older.
 */
export function evidenceFor(info: TestInfo, recent: readonly Evidence[], limit: number): Evidence[] {
  const leads = [...(LEADS.get(info) ?? new Map<Evidence, Set<string>>())].slice(0, limit);
  const out: Evidence[] = leads.map(([e, rules]) => (rules.size ? { ...e, brokeRules: [...rules] } : e));
  const led = new Set(leads.map(([e]) => e));
  for (const e of recent) if (out.length < limit && !led.has(e)) out.push(e);
  return out;
}

/** Records an answer that says an operation is missing ("GET /v2/{endpointId}/health answered 404"), once. */
export function metAbsence(info: TestInfo, line: string): void {
  const list = ABSENCES.get(info) ?? [];
  if (!list.includes(line)) list.push(line);
  ABSENCES.set(info, list);
}

/** The missing operations the test met, in order. */
export const absencesMet = (info: TestInfo): readonly string[] => ABSENCES.get(info) ?? [];
