import type { RawTestResult } from '../../lib/protocol.js';
import type { BlastRadiusSection } from '../../reports/model.js';

/**
 * How the suite fared against one fault:
 * - `detected`: a test failed on the rule the fault breaks;
 * - `other-rule`: tests failed, but none on that rule (the fault leaks into other rules, or a check misattributes);
 * - `missed`: the tests of that rule all passed with the fault on;
 * - `no-tests`: no test declares the rule (or they were all skipped).
 */
export type Detection = 'detected' | 'other-rule' | 'missed' | 'no-tests';

export interface MatrixRow {
  fault: string;
  rule: string;
  description: string;
  detection: Detection;
  tests: number;
  failedTests: number;
  /** Rules the failed tests' checks named (a test that named none was blocked, and fails none). */
  failedRules: string[];
  /** How many of `failedRules` are MUST rules: at most BLAST_LIMIT, the fault's own among them. */
  failedMust: number;
  /** Failed tests that named no rule (stopped by an error that is not a finding). */
  blockedTests: number;
  /** A test that failed on the rule, as evidence of detection. */
  witness?: string;
}

export interface DetectionMatrix {
  schemaVersion: '1.0.0';
  generatedAt: string;
  faults: number;
  detected: number;
  /** Faults whose tests failed more than BLAST_LIMIT MUST rules. */
  overLimit: number;
  rows: MatrixRow[];
}

/** One fault breaks one rule: a run with it on may fail a few MUST rules (one answer can break several), never more than this. */
export const BLAST_LIMIT = 3;

const isFailed = (t: RawTestResult): boolean => t.status === 'failed' || t.status === 'timedOut';

function byFault(raw: readonly RawTestResult[]): Map<string, RawTestResult[]> {
  const out = new Map<string, RawTestResult[]>();
  for (const t of raw) {
    if (!t.fault) continue;
    let list = out.get(t.fault);
    if (!list) out.set(t.fault, (list = []));
    list.push(t);
  }
  return out;
}

/** What the failed tests of one fault failed: the rules their checks named, and how many were blocked instead. */
function failures(tests: readonly RawTestResult[], must: ReadonlySet<string>) {
  const failed = tests.filter(isFailed);
  const failedRules = [...new Set(failed.flatMap((t) => t.failedRules))].sort();
  return { failed, failedRules, failedMust: failedRules.filter((r) => must.has(r)), blockedTests: failed.filter((t) => t.failedRules.length === 0).length };
}

/** The matrix of `cpc detect`: the selected tests of each fault. `must`: the MUST rule ids of the catalog. */
export function buildMatrix(catalog: Record<string, { rule: string; description: string }>, raw: readonly RawTestResult[], must: ReadonlySet<string>): DetectionMatrix {
  const grouped = byFault(raw);
  const rows: MatrixRow[] = Object.entries(catalog).map(([fault, def]) => {
    const tests = (grouped.get(fault) ?? []).filter((t) => t.status !== 'skipped');
    const { failed, failedRules, failedMust, blockedTests } = failures(tests, must);
    const witness = failed.find((t) => t.failedRules.includes(def.rule));
    const detection: Detection = tests.length === 0 ? 'no-tests' : witness ? 'detected' : failed.length > 0 ? 'other-rule' : 'missed';
    return {
      fault, rule: def.rule, description: def.description, detection, tests: tests.length, failedTests: failed.length, failedRules, failedMust: failedMust.length, blockedTests,
      ...(witness ? { witness: `${witness.file} › ${witness.title}` } : {}),
    };
  });
  return {
    schemaVersion: '1.0.0', generatedAt: new Date().toISOString(), faults: rows.length, detected: rows.filter((r) => r.detection === 'detected').length,
    overLimit: rows.filter((r) => r.failedMust > BLAST_LIMIT).length, rows,
  };
}

/** The matrix passes when every fault is detected by its own rule and fails at most BLAST_LIMIT MUST rules. */
export const matrixPasses = (m: DetectionMatrix): boolean => m.detected === m.faults && m.overLimit === 0;

export function matrixText(m: DetectionMatrix): string {
  const lines = [`Detection matrix: ${m.detected}/${m.faults} faults detected by the rule they break; ${m.overLimit} fail more than ${BLAST_LIMIT} MUST rules`];
  for (const r of m.rows) {
    const ok = r.detection === 'detected' && r.failedMust <= BLAST_LIMIT;
    const over = r.failedMust > BLAST_LIMIT ? ` fails ${r.failedMust} MUST rules: ${r.failedRules.join(', ')}` : '';
    lines.push(`  ${ok ? '✓' : '✗'} ${r.fault.padEnd(40)} ${r.rule.padEnd(44)} ${r.detection}${r.detection === 'detected' ? over : ` (tests ${r.tests}, failed on: ${r.failedRules.join(', ') || 'nothing'}${r.blockedTests ? `, ${r.blockedTests} blocked` : ''})`}`);
  }
  return lines.join('\n');
}

/** `cpc detect --full`: one fault, the whole suite (the report's section, versioned as a file). */
export type BlastRadius = BlastRadiusSection & { schemaVersion: '1.0.0' };
type BlastRow = BlastRadiusSection['rows'][number];

export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function buildBlastRadius(catalog: Record<string, { rule: string }>, raw: readonly RawTestResult[], must: ReadonlySet<string>, durationMs: number): BlastRadius {
  const grouped = byFault(raw);
  const rows: BlastRow[] = Object.entries(catalog).map(([fault, def]) => {
    const tests = (grouped.get(fault) ?? []).filter((t) => t.status !== 'skipped');
    const { failed, failedMust, blockedTests } = failures(tests, must);
    return { fault, rule: def.rule, failedMust, ownRule: failedMust.includes(def.rule), tests: tests.length, failedTests: failed.length, blockedTests };
  });
  const counts = rows.map((r) => r.failedMust.length);
  return {
    schemaVersion: '1.0.0', generatedAt: new Date().toISOString(), durationMs: Math.round(durationMs), faults: rows.length, limit: BLAST_LIMIT,
    median: median(counts), max: Math.max(0, ...counts),
    missingOwnRule: rows.filter((r) => !r.ownRule).length, overLimit: rows.filter((r) => r.failedMust.length > BLAST_LIMIT).length, rows,
  };
}

export const blastPasses = (b: BlastRadius): boolean => b.missingOwnRule === 0 && b.overLimit === 0;

export function blastText(b: BlastRadius): string {
  const lines = [`Blast radius (whole suite, one fault at a time): ${b.faults} faults, failed MUST rules per fault median ${b.median}, max ${b.max}; ${b.missingOwnRule} without their own rule, ${b.overLimit} over ${b.limit}`];
  for (const r of b.rows) {
    const ok = r.ownRule && r.failedMust.length <= b.limit;
    lines.push(`  ${ok ? '✓' : '✗'} ${r.fault.padEnd(40)} ${String(r.failedMust.length).padStart(3)} ${r.ownRule ? '' : `(own rule ${r.rule} missing) `}${r.failedMust.join(', ')}${r.blockedTests ? ` · ${r.blockedTests} test(s) blocked` : ''}`);
  }
  return lines.join('\n');
}
