/**
 * What a test's exchanges told, kept per test for its verdict: the exchanges that broke its
 * rules, in the order its findings name them (its evidence shows them first, before its last
 * exchanges, so a failed rule's evidence is the exchange its message describes), and the
 * answers it met that say an operation is missing (lib/client/absence.ts).
 */
import type { TestInfo } from '@playwright/test';
import type { Evidence } from '../../lib/evidence.js';

const LEADS = new WeakMap<TestInfo, Evidence[]>();
const ABSENCES = new WeakMap<TestInfo, string[]>();

/** Adds exchanges to lead the test's evidence (each once). */
export function leadWith(info: TestInfo, evidence: readonly Evidence[]): void {
  const list = LEADS.get(info) ?? [];
  for (const e of evidence) if (!list.includes(e)) list.push(e);
  LEADS.set(info, list);
}

/**
 * The evidence a test attaches: its leading exchanges, then its last ones (`recent`, oldest
 * first), each once, `limit` in all. Leading exchanges come first even when older.
 */
export function evidenceFor(info: TestInfo, recent: readonly Evidence[], limit: number): Evidence[] {
  const out = [...(LEADS.get(info) ?? [])].slice(0, limit);
  for (const e of recent) if (out.length < limit && !out.includes(e)) out.push(e);
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
