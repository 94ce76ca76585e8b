import type { RawTestResult } from '../../reports/raw.js';

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
  failedRules: string[];
  /** A test that failed on the rule, as evidence of detection. */
  witness?: string;
}

export interface DetectionMatrix {
  schemaVersion: '1.0.0';
  generatedAt: string;
  faults: number;
  detected: number;
  rows: MatrixRow[];
}

/** Rules a failed test failed on: those its checks named, else every rule it declares. */
const failedRulesOf = (t: RawTestResult): string[] => (t.failedRules.length > 0 ? t.failedRules : t.rules);

export function buildMatrix(catalog: Record<string, { rule: string; description: string }>, raw: readonly RawTestResult[]): DetectionMatrix {
  const byFault = new Map<string, RawTestResult[]>();
  for (const t of raw) {
    if (!t.fault) continue;
    let list = byFault.get(t.fault);
    if (!list) byFault.set(t.fault, (list = []));
    list.push(t);
  }
  const rows: MatrixRow[] = Object.entries(catalog).map(([fault, def]) => {
    const tests = (byFault.get(fault) ?? []).filter((t) => t.status !== 'skipped');
    const failed = tests.filter((t) => t.status === 'failed' || t.status === 'timedOut');
    const failedRules = [...new Set(failed.flatMap(failedRulesOf))].sort();
    const witness = failed.find((t) => failedRulesOf(t).includes(def.rule));
    const detection: Detection = tests.length === 0 ? 'no-tests' : witness ? 'detected' : failed.length > 0 ? 'other-rule' : 'missed';
    return {
      fault, rule: def.rule, description: def.description, detection, tests: tests.length, failedTests: failed.length, failedRules,
      ...(witness ? { witness: `${witness.file} › ${witness.title}` } : {}),
    };
  });
  return { schemaVersion: '1.0.0', generatedAt: new Date().toISOString(), faults: rows.length, detected: rows.filter((r) => r.detection === 'detected').length, rows };
}

export function matrixText(m: DetectionMatrix): string {
  const lines = [`Detection matrix: ${m.detected}/${m.faults} faults detected by the rule they break`];
  for (const r of m.rows) {
    const mark = r.detection === 'detected' ? '✓' : '✗';
    lines.push(`  ${mark} ${r.fault.padEnd(40)} ${r.rule.padEnd(44)} ${r.detection}${r.detection === 'detected' ? '' : ` (tests ${r.tests}, failed on: ${r.failedRules.join(', ') || 'nothing'})`}`);
  }
  return lines.join('\n');
}
