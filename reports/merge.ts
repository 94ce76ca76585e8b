/**
 * Merging the partial reports of a sharded run (`cpc conformance --shard i/n` on n machines)
 * into one report. The tests of every shard are put together and every rule's verdict is
 * computed again from them (reports/verdicts.ts), exactly as one unsharded run computes it:
 * a rule whose tests ran on two shards gets the verdict of all its tests, not an OR of two
 * partial verdicts.
 */
import type { Rule } from '../lib/rules.js';
import { ConfigError } from '../lib/errors.js';
import type { ConformanceReport, RunInfo } from './model.js';
import { countRules, countTests } from './build.js';
import { isPartial, mustCoverage } from './coverage.js';
import { ruleResults } from './verdicts.js';
import { mergeCost } from './cost.js';

/** `i/n` of a partial report, or undefined for a report of a whole run. */
export function shardOf(report: ConformanceReport): { index: number; total: number } | undefined {
  const shard = report.run.configuration.shard;
  if (report.run.configuration.partial !== true || typeof shard !== 'string') return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  return m ? { index: Number(m[1]), total: Number(m[2]) } : undefined;
}

/** Parses `--shard i/n` (1 <= i <= n). */
export function parseShard(text: string): { index: number; total: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || !(total >= 1) || !(index >= 1) || index > total) throw new ConfigError(`--shard is i/n with 1 <= i <= n, got "${text}"`);
  return { index, total };
}

/** The rule catalog a report was built with (what the verdicts need of it). */
const catalogOf = (report: ConformanceReport): Rule[] =>
  report.rules.map((r) => ({ id: r.id, level: r.level, surface: r.surface, section: r.section, statement: r.statement, quote: '', ...(r.observedExpectation ? { observedExpectation: r.observedExpectation } : {}) }));

const without = (config: RunInfo['configuration'], ...keys: string[]): RunInfo['configuration'] =>
  Object.fromEntries(Object.entries(config).filter(([k]) => !keys.includes(k)));

const newestVersion = (versions: readonly string[]): string =>
  [...versions].sort((a, b) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x!.map((n, i) => n - (y![i] ?? 0)).find((d) => d !== 0) ?? 0;
  }).at(-1)!;

/**
 * One report from the partial reports of every shard of one run. Refuses (a configuration
 * error) reports of another run: a whole run, another shard count, a missing or repeated
 * shard, another seed, suite version, target or selection, or another rule catalog.
 * `labels` name the inputs in messages (file names).
 */
export function mergeReports(reports: readonly ConformanceReport[], labels: readonly string[] = reports.map((_, i) => `report ${i + 1}`)): ConformanceReport {
  if (reports.length === 0) throw new ConfigError('cpc report --merge needs the partial reports of every shard');
  const shards = reports.map((r, i) => {
    const s = shardOf(r);
    if (!s) throw new ConfigError(`${labels[i]} is not a partial report (run with --shard i/n)`);
    return s;
  });
  const first = reports[0]!;
  const total = shards[0]!.total;
  const problems: string[] = [];
  reports.forEach((r, i) => {
    const label = labels[i]!;
    if (shards[i]!.total !== total) problems.push(`${label} is shard ${shards[i]!.index}/${shards[i]!.total}, not of ${total}`);
    if (r.run.seed !== first.run.seed) problems.push(`${label} has seed ${String(r.run.seed)}, ${labels[0]} ${String(first.run.seed)} (run every shard with the same CPC_SEED)`);
    if (r.suite.version !== first.suite.version) problems.push(`${label} is of suite ${r.suite.version}, ${labels[0]} of ${first.suite.version}`);
    if (r.target.kind !== first.target.kind || (r.target.kind === 'remote' && r.target.baseUrl !== first.target.baseUrl)) problems.push(`${label} ran against another target`);
    for (const key of ['projects', 'grep'] as const) {
      if (r.run.configuration[key] !== first.run.configuration[key]) problems.push(`${label} has ${key} ${String(r.run.configuration[key])}, ${labels[0]} ${String(first.run.configuration[key])}`);
    }
    if (r.rules.map((x) => x.id).join() !== first.rules.map((x) => x.id).join()) problems.push(`${label} has another rule catalog`);
  });
  const seen = new Map<number, string>();
  reports.forEach((_, i) => {
    const { index } = shards[i]!;
    if (seen.has(index)) problems.push(`shard ${index}/${total} given twice (${seen.get(index)} and ${labels[i]})`);
    seen.set(index, labels[i]!);
  });
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) problems.push(`missing shard(s) ${missing.map((i) => `${i}/${total}`).join(', ')}`);
  if (problems.length) throw new ConfigError(`cannot merge: ${problems.join('; ')}`);

  const tests = reports.flatMap((r) => r.tests);
  const ids = new Set<string>();
  for (const t of tests) {
    if (ids.has(t.id)) throw new ConfigError(`cannot merge: test ${t.id} ("${t.title}") is in two shards`);
    ids.add(t.id);
  }
  tests.sort((a, b) => a.kind.localeCompare(b.kind) || a.file.localeCompare(b.file) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  const results = ruleResults(catalogOf(first), tests);
  const counts = countTests(tests);
  const complete = reports.every((r) => r.run.complete);
  const interruptions = reports.flatMap((r, i) => (r.run.interruption ? [`shard ${shards[i]!.index}/${total}: ${r.run.interruption}`] : []));
  const startedAt = reports.map((r) => r.run.startedAt).sort()[0]!;
  const finishedAt = reports.map((r) => r.run.finishedAt).sort().at(-1)!;
  const loads = reports.filter((r) => r.load);
  const cost = mergeCost(reports.map((r) => r.cost));
  const replay = first.run.replay?.replace(/\s--shard\s+\S+/, '').replace(/ --$/, '');
  const version = newestVersion(reports.map((r) => r.schemaVersion));
  const configuration = { ...without(first.run.configuration, 'shard', 'partial'), load: loads.length > 0, mergedShards: total };
  const conformant = complete && !results.some((r) => r.level === 'MUST' && r.verdict === 'fail') && counts.failed === 0;
  return {
    // The newest of the inputs: a section one shard has (the cost section since 2.2) is in the merged report.
    schemaVersion: version,
    suite: first.suite,
    target: first.target,
    run: {
      startedAt, finishedAt, durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)), complete,
      ...(interruptions.length ? { interruption: interruptions.join('; ') } : {}),
      ...(first.run.seed !== undefined ? { seed: first.run.seed } : {}),
      ...(replay ? { replay } : {}),
      configuration,
    },
    // Shards older than 2.3 carry no MUST coverage: it is computed then, never written into a 2.2 report.
    summary: { ...countRules(results), tests: counts, conformant, ...(newestVersion([version, '2.3.0']) === version ? { must: mustCoverage(results, isPartial(configuration)) } : {}) },
    rules: results,
    tests,
    ...(loads[0]?.load ? { load: loads[0].load } : {}),
    ...(first.mutation ? { mutation: first.mutation } : {}),
    ...(cost ? { cost } : {}),
  };
}
