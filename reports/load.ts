/**
 * Reads the load scenarios' summaries (`reports/out/load/*.json`, written by k6's
 * `handleSummary`) into the report's `load` section, and turns each scenario into a test
 * outcome of kind `load`, so a failed threshold on what the spec states fails the rules the
 * scenario declares. Latency thresholds are reported only: the spec states no latency.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import type { TestOutcome } from './model.js';
import { LOAD_SUMMARY_FIELDS, type LoadScenarioResult, type LoadSection, type LoadSummary } from './load-model.js';
import { validateLoadSummary } from './validate.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps the fields the report knows; thresholds keep only `ok`. */
function normalise(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of LOAD_SUMMARY_FIELDS) if (raw[field] !== undefined) out[field] = raw[field];
  if (isObject(out.thresholds)) {
    out.thresholds = Object.fromEntries(Object.entries(out.thresholds).map(([name, t]) => [name, isObject(t) ? { ok: t.ok } : t]));
  }
  return out;
}

const display = (file: string, root: string): string => {
  const rel = relative(root, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
};

/**
 * Every summary in `dir`, in file-name order; undefined when the folder holds none. A file
 * that is not valid JSON or not a summary is listed under `errors`, never fatal.
 */
export function readLoadResults(dir: string, root: string = process.cwd(), knownRules?: ReadonlySet<string>): LoadSection | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) return undefined;
  const section: LoadSection = { dir: display(dir, root), scenarios: [], errors: [] };
  for (const name of files) {
    const path = join(dir, name);
    const file = display(path, root);
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      section.errors.push({ file, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const items = Array.isArray(doc) ? doc : [doc];
    items.forEach((item, index) => {
      const where = items.length > 1 ? `${file}[${index}]` : file;
      const summary = isObject(item) ? normalise(item) : item;
      const check = validateLoadSummary(summary);
      if (!check.valid) {
        section.errors.push({ file: where, message: `not a load summary: ${check.issues.slice(0, 5).join('; ')}` });
        return;
      }
      const s = summary as unknown as LoadSummary;
      const unknown = knownRules ? (s.rules ?? []).filter((r) => !knownRules.has(r)) : [];
      if (unknown.length) section.errors.push({ file: where, message: `unknown rule ids: ${unknown.join(', ')}` });
      const failedThresholds = Object.entries(s.thresholds).filter(([, t]) => !t.ok).map(([name]) => name);
      const result: LoadScenarioResult = { file: where, writtenAt: statSync(path).mtime.toISOString(), ok: failedThresholds.length === 0, failedThresholds, summary: s };
      section.scenarios.push(result);
    });
  }
  return section;
}

/** k6's timings of a request, an iteration and a group: thresholds on them bound latency. */
const K6_TIMINGS = new Set(['http_req_duration', 'http_req_waiting', 'http_req_blocked', 'http_req_connecting', 'http_req_tls_handshaking', 'http_req_sending', 'http_req_receiving', 'iteration_duration', 'group_duration']);

/**
 * A latency threshold (`<metric>{tags} <expression>`): on one of k6's timings or on a scenario's
 * own time trend, which the scenarios name `*_duration` (load/README.md). The spec states no
 * latency, so such a threshold is reported and decides no rule.
 */
function isLatencyThreshold(name: string): boolean {
  const metric = name.split(/[{ ]/, 1)[0]!;
  return K6_TIMINGS.has(metric) || metric.endsWith('_duration');
}

/**
 * One `load` test per scenario: it failed when a threshold on what the spec states (payload
 * limits, the wait range, RateLimit headers: the checks, counts and failure rates) did not hold.
 * A breached latency threshold stays in the scenario's `failedThresholds` and fails nothing.
 */
export function loadOutcomes(section: LoadSection): TestOutcome[] {
  return section.scenarios.map((sc) => {
    const failed = sc.failedThresholds.filter((t) => !isLatencyThreshold(t));
    return {
      id: `load:${sc.file}:${sc.summary.scenario}`,
      kind: 'load' as const,
      title: `load › ${sc.summary.scenario}`,
      file: sc.file,
      status: failed.length === 0 ? ('passed' as const) : ('failed' as const),
      durationMs: Math.max(0, Math.round(sc.summary.durationMs ?? 0)),
      rules: sc.summary.rules ?? [],
      // Such a threshold is the scenario's own check of the rules it declares.
      failedRules: failed.length === 0 ? [] : (sc.summary.rules ?? []),
      ...(failed.length === 0 ? {} : { error: `thresholds not met: ${failed.join(', ')}` }),
    };
  });
}
