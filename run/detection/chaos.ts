import type { ConformanceReport, Counts } from '../../reports/model.js';

/**
 * The chaos matrix (`npm run chaos`): the whole suite against the legal-chaos emulator once per
 * seed. A legal target fails no MUST rule, so every seed must end with none failed; what each
 * seed failed or blocked, and why, is kept for the report (`reports/out/chaos.json`).
 */
export interface ChaosSeedRow {
  seed: number;
  /** The chaos option of the run (`<seed>[,real-time][,latency=<ms>]`). */
  chaos: string;
  /** The command that replays this seed. */
  replay: string;
  exitCode: number;
  /** Whether the run ended with a report and was not interrupted. */
  complete: boolean;
  interruption?: string;
  wallMs: number;
  /** MUST rules by verdict. */
  must: Omit<Counts, 'observed'>;
  tests: { total: number; passed: number; failed: number; skipped: number };
  /** Each failed MUST rule with the tests that failed it and their messages. */
  failedMust: { rule: string; failures: { test: string; message: string }[] }[];
  /** Each blocked MUST rule with what stopped its tests. */
  blockedMust: { rule: string; reasons: { test: string; reason: string; rules?: string[] }[] }[];
  /** Failed tests, with the rules their checks named (none: blocked). */
  failedTests: { test: string; failedRules: string[]; error?: string }[];
}

export interface ChaosMatrix {
  schemaVersion: '1.0.0';
  generatedAt: string;
  /** `virtual`: the tests' own clock; `real-time`: each world's clock runs in real time. */
  clock: 'virtual' | 'real-time';
  latencyMs: number;
  seeds: number;
  /** Seeds that ended complete with no failed MUST rule. */
  clean: number;
  durationMs: number;
  rows: ChaosSeedRow[];
}

const MESSAGE_LIMIT = 600;
/** A message on one line, clipped: the report keeps the whole of it. */
const clip = (s: string): string => {
  const line = s.split('\n').map((l) => l.trim()).filter(Boolean).join(' / ');
  return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT)}…` : line;
};

/** One seed's row from its report; `report` is undefined when the run wrote none. */
export function chaosRow(seed: number, chaos: string, replay: string, exitCode: number, wallMs: number, report: ConformanceReport | undefined): ChaosSeedRow {
  if (!report) {
    return {
      seed, chaos, replay, exitCode, complete: false, interruption: 'the run wrote no report', wallMs,
      must: { total: 0, pass: 0, fail: 0, blocked: 0, skip: 0, untested: 0 }, tests: { total: 0, passed: 0, failed: 0, skipped: 0 },
      failedMust: [], blockedMust: [], failedTests: [],
    };
  }
  const titles = new Map(report.tests.map((x) => [x.id, `${x.file} › ${x.title}`]));
  const title = (id: string): string => titles.get(id) ?? id;
  const must = report.rules.filter((r) => r.level === 'MUST');
  const count = (v: string): number => must.filter((r) => r.verdict === v).length;
  const t = report.summary.tests;
  return {
    seed, chaos, replay, exitCode, complete: report.run.complete, ...(report.run.interruption ? { interruption: report.run.interruption } : {}), wallMs,
    must: { total: must.length, pass: count('pass'), fail: count('fail'), blocked: count('blocked'), skip: count('skip'), untested: count('untested') },
    tests: { total: t.total, passed: t.passed, failed: t.failed, skipped: t.skipped },
    failedMust: must.filter((r) => r.verdict === 'fail').map((r) => ({ rule: r.id, failures: (r.failures ?? []).map((f) => ({ test: title(f.test), message: clip(f.message) })) })),
    blockedMust: must.filter((r) => r.verdict === 'blocked').map((r) => ({ rule: r.id, reasons: (r.blockedReasons ?? []).map((b) => ({ test: title(b.test), reason: clip(b.reason), ...(b.rules ? { rules: b.rules } : {}) })) })),
    failedTests: report.tests.filter((x) => x.status === 'failed').map((x) => ({ test: `${x.file} › ${x.title}`, failedRules: x.failedRules, ...(x.error ? { error: clip(x.error) } : {}) })),
  };
}

export const seedClean = (row: ChaosSeedRow): boolean => row.complete && row.failedMust.length === 0 && row.exitCode !== 2 && row.exitCode !== 130;

export function buildChaosMatrix(rows: ChaosSeedRow[], clock: ChaosMatrix['clock'], latencyMs: number, durationMs: number): ChaosMatrix {
  return { schemaVersion: '1.0.0', generatedAt: new Date().toISOString(), clock, latencyMs, seeds: rows.length, clean: rows.filter(seedClean).length, durationMs: Math.round(durationMs), rows };
}

export const chaosMatrixPasses = (m: ChaosMatrix): boolean => m.clean === m.seeds;

/** A message as one line of the printed matrix (chaos.json keeps more of it). */
const short = (s: string): string => (s.length > 240 ? `${s.slice(0, 240)}…` : s);

/** One line per seed, then each failed MUST rule and blocked rule with its tests. */
export function chaosMatrixText(m: ChaosMatrix): string {
  const lines = [`Chaos matrix (${m.clock} clock${m.latencyMs ? `, latency about ${m.latencyMs} ms` : ''}): ${m.clean}/${m.seeds} seeds without a failed MUST rule`];
  for (const r of m.rows) {
    lines.push(`  ${seedClean(r) ? '✓' : '✗'} seed ${String(r.seed).padEnd(6)} MUST pass ${r.must.pass}, fail ${r.must.fail}, blocked ${r.must.blocked}, skip ${r.must.skip}; tests failed ${r.tests.failed}; ${(r.wallMs / 1000).toFixed(1)} s${r.complete ? '' : ` (incomplete: ${r.interruption ?? 'interrupted'})`}`);
    for (const f of r.failedMust) {
      lines.push(`      fail ${f.rule}`);
      for (const x of f.failures) lines.push(`        ${x.test}: ${short(x.message)}`);
    }
    for (const b of r.blockedMust) lines.push(`      blocked ${b.rule}: ${short(b.reasons.map((x) => `${x.test}: ${x.reason}`).join(' | '))}`);
    if (!seedClean(r)) lines.push(`      replay: ${r.replay}`);
  }
  return lines.join('\n');
}
