/**
 * Differential mode: two reports (say, the emulator and a real deployment, or yesterday and
 * today) compared rule by rule. A rule differs when its verdict differs or, for a rule with
 * observations, when the set of observed values differs (order and repeats ignored).
 */
import type { ConformanceReport, RuleResult, Verdict } from './model.js';

/** One side of the comparison, as the renderers show it. */
export interface DiffSide {
  label: string;
  target: string;
  startedAt: string;
  complete: boolean;
  seed?: number;
  conformant: boolean;
}

export interface RuleDiff {
  id: string;
  level: string;
  surface: string;
  statement: string;
  a?: { verdict: Verdict; observed: string[] };
  b?: { verdict: Verdict; observed: string[] };
  verdictChanged: boolean;
  observedChanged: boolean;
}

export interface ReportDiff {
  a: DiffSide;
  b: DiffSide;
  identical: boolean;
  /** Every rule whose verdict or observed behaviour differs, in catalog order. */
  rules: RuleDiff[];
  /** How many rules both reports have in common. */
  compared: number;
}

/** JSON with sorted object keys, so equal values print equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The distinct observed values of a rule, canonical and sorted. */
export const observedSet = (r: RuleResult): string[] => [...new Set((r.observed ?? []).map((o) => canonicalJson(o.value)))].sort();

const side = (r: ConformanceReport, label: string): DiffSide => ({
  label,
  target: r.target.kind === 'embedded' ? `embedded emulator${r.target.faults.length ? ` (faults: ${r.target.faults.map((f) => f.id).join(', ')})` : ''}` : (r.target.baseUrl ?? 'remote target'),
  startedAt: r.run.startedAt,
  complete: r.run.complete,
  ...(r.run.seed !== undefined ? { seed: r.run.seed } : {}),
  conformant: r.summary.conformant,
});

/** Compares report `a` with report `b`. */
export function diffReports(a: ConformanceReport, b: ConformanceReport, labels: [string, string] = ['A', 'B']): ReportDiff {
  const inB = new Map(b.rules.map((r) => [r.id, r]));
  const inA = new Set(a.rules.map((r) => r.id));
  const rules: RuleDiff[] = [];
  let compared = 0;
  const entry = (r: RuleResult) => ({ verdict: r.verdict, observed: observedSet(r) });
  for (const ra of a.rules) {
    const rb = inB.get(ra.id);
    if (!rb) {
      rules.push({ id: ra.id, level: ra.level, surface: ra.surface, statement: ra.statement, a: entry(ra), verdictChanged: true, observedChanged: false });
      continue;
    }
    compared++;
    const ea = entry(ra);
    const eb = entry(rb);
    const verdictChanged = ea.verdict !== eb.verdict;
    const observedChanged = canonicalJson(ea.observed) !== canonicalJson(eb.observed);
    if (verdictChanged || observedChanged) rules.push({ id: ra.id, level: ra.level, surface: ra.surface, statement: ra.statement, a: ea, b: eb, verdictChanged, observedChanged });
  }
  for (const rb of b.rules) {
    if (!inA.has(rb.id)) rules.push({ id: rb.id, level: rb.level, surface: rb.surface, statement: rb.statement, b: entry(rb), verdictChanged: true, observedChanged: false });
  }
  return { a: side(a, labels[0]), b: side(b, labels[1]), identical: rules.length === 0, rules, compared };
}
