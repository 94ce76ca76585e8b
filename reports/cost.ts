import type { PacingFile, PlanFile, UsageFile } from '../lib/protocol.js';
/**
 * The cost section (reports/cost-model.ts): summed from the tests' usage annotations when the
 * report is built, completed from the files a deployment run leaves beside the report when it
 * is published, and summed again when partial reports are merged.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './model.js';
import { REPORT_SCHEMA_VERSION } from './model.js';
import type { RawTestResult } from './raw.js';
import { COST_KINDS, TOP_TESTS, type CostCounts, type CostLeftover, type CostSection, type TestRequests } from './cost-model.js';
import { titleOf } from './verdicts.js';
import { addWorkerTime, type ObservedWorkerTime, type WorkerTimePlan } from '../lib/worker-time.js';

/** The files beside the report that the section reads. */
export const COST_FILES = { usage: 'usage.json', pacing: 'pacing.json', leftovers: 'leftovers.json', plan: 'plan.json' } as const;

/** What the files held, as far as the section uses them (each file is optional). */
export interface CostFiles {
  /** lib/protocol.ts `UsageFile`. */
  usage?: Omit<UsageFile, 'runId' | 'writtenAt'>;
  /** lib/protocol.ts `PacingFile`: the waits summed, and how many tests waited. */
  pacing?: Omit<PacingFile, 'runId' | 'tests'> & { tests: number };
  /** lib/cleanup.ts `LeftoversFile`. */
  leftovers?: { created: number; items: CostLeftover[] };
  /** Preflight's plan (lib/protocol.ts `PlanFile`). */
  plan?: Omit<PlanFile, 'pools'> & { pools: string[] };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A count from a file or an annotation: anything but a finite non-negative number reads as 0. */
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);
const amount = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const optionalAmount = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export const zeroCostCounts = (): CostCounts => ({ gpuPods: 0, cpuPods: 0, networkVolumes: 0, endpoints: 0, warmEndpoints: 0, templates: 0, secrets: 0 });

function countsOf(v: unknown): CostCounts {
  const out = zeroCostCounts();
  if (isRecord(v)) for (const k of COST_KINDS) out[k] = count(v[k]);
  return out;
}

function addCounts(into: CostCounts, more: CostCounts): CostCounts {
  for (const k of COST_KINDS) into[k] += more[k];
  return into;
}

/** Numbers by name; `round` for counts, not for minutes. */
function numbersOf(v: unknown, round: boolean): Record<string, number> {
  if (!isRecord(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([k, n]) => [k, round ? count(n) : amount(n)] as const).filter(([, n]) => n > 0));
}

function addNumbers(into: Record<string, number>, more: Record<string, number>): Record<string, number> {
  for (const [k, n] of Object.entries(more)) into[k] = (into[k] ?? 0) + n;
  return into;
}

/** Most first, then by title, so two runs list the same tests in the same order. */
const heaviest = (tests: readonly TestRequests[]): TestRequests[] =>
  [...tests].filter((t) => t.total > 0).sort((a, b) => b.total - a.total || a.title.localeCompare(b.title) || a.id.localeCompare(b.id)).slice(0, TOP_TESTS);

const emptySection = (): CostSection => ({
  sources: { tests: 0, usage: false, pacing: false, leftovers: false, plan: false },
  requests: { total: 0, bySurface: {}, top: [] },
  created: { tests: zeroCostCounts() },
});

/** The tests' part: requests per surface and per test, creations per kind. A retried test's attempts all count: each sent its requests. */
export function costFromRaw(raw: readonly RawTestResult[]): CostSection | undefined {
  const withUsage = raw.filter((r) => isRecord(r.usage));
  if (withUsage.length === 0) return undefined;
  const section = emptySection();
  const perTest = new Map<string, TestRequests>();
  for (const r of withUsage) {
    const requests: Record<string, unknown> = isRecord(r.usage!.requests) ? r.usage!.requests : {};
    const bySurface = numbersOf(requests.bySurface, true);
    // The total the fixture counted, or the surfaces' sum when it gives none.
    const total = count(requests.total) || Object.values(bySurface).reduce((a, b) => a + b, 0);
    section.requests.total += total;
    addNumbers(section.requests.bySurface, bySurface);
    addCounts(section.created.tests, countsOf(r.usage!.created));
    const t = perTest.get(r.id) ?? { id: r.id, title: titleOf(r), total: 0, bySurface: {} };
    t.total += total;
    addNumbers(t.bySurface, bySurface);
    perTest.set(r.id, t);
  }
  section.sources.tests = withUsage.length;
  section.requests.top = heaviest([...perTest.values()]);
  return section;
}

/**
 * Files written during the run only. Some are not removed when a run starts (an emulator run
 * writes none, and a deployment run's may still sit in the folder), so one older than the run,
 * or newer than its report, belongs to another run. The margin covers coarse file times.
 */
const MARGIN_MS = 2000;

function readJson(path: string, window?: { from: string; to: string }): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    if (window) {
      const at = statSync(path).mtimeMs;
      if (at < Date.parse(window.from) - MARGIN_MS || at > Date.parse(window.to) + MARGIN_MS) return undefined;
    }
    const doc = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return isRecord(doc) ? doc : undefined;
  } catch {
    // A torn or unreadable file: that part is then not measured, as when the file is missing.
    return undefined;
  }
}

/** The plan's worker time as the file holds it: its figures checked, a price kept only with its cost. */
function workerTimeOf(v: unknown): WorkerTimePlan | undefined {
  if (!isRecord(v)) return undefined;
  const tier = str(v.tier);
  const hourly = optionalAmount(v.usdPerHour);
  const cost = optionalAmount(v.estimatedCostUsd);
  return { ...(tier ? { tier } : {}), jobs: count(v.jobs), workMs: Math.round(amount(v.workMs)), boundMs: Math.round(amount(v.boundMs)),
    ...(hourly !== undefined && cost !== undefined ? { usdPerHour: hourly, estimatedCostUsd: cost } : {}) };
}

/** The provisioned endpoints' worker time as usage.json holds it. */
function observedOf(v: unknown): ObservedWorkerTime | undefined {
  if (!isRecord(v)) return undefined;
  const cost = optionalAmount(v.estimatedCostUsd);
  return { endpoints: count(v.endpoints), endpointMinutes: amount(v.endpointMinutes), workerMinutesAtMost: amount(v.workerMinutesAtMost), ...(cost !== undefined ? { estimatedCostUsd: cost } : {}) };
}

/** Reads the files beside the report in `dir`; with `window`, only those written between the run's start and end. */
export function readCostFiles(dir: string, window?: { from: string; to: string }): CostFiles {
  const files: CostFiles = {};
  const usage = readJson(join(dir, COST_FILES.usage), window);
  if (usage) {
    const minutes = isRecord(usage.podMinutes) ? usage.podMinutes : {};
    const cost = optionalAmount(usage.estimatedCostUsd);
    files.usage = {
      created: countsOf(usage.created), byShape: numbersOf(usage.byShape, true),
      podMinutes: { gpu: numbersOf(minutes.gpu, false), cpu: numbersOf(minutes.cpu, false) },
      ...(cost !== undefined ? { estimatedCostUsd: cost } : {}), unpriced: count(usage.unpriced), requests: count(usage.requests),
    };
    const observed = observedOf(usage.workerTime);
    if (observed) files.usage.workerTime = observed;
  }
  const pacing = readJson(join(dir, COST_FILES.pacing), window);
  if (pacing) files.pacing = { totalMs: Math.round(amount(pacing.totalMs)), retried: count(pacing.retried), gaveUp: count(pacing.gaveUp), tests: Array.isArray(pacing.tests) ? pacing.tests.length : 0 };
  const leftovers = readJson(join(dir, COST_FILES.leftovers), window);
  if (leftovers) {
    const items = (Array.isArray(leftovers.leftovers) ? leftovers.leftovers : []).filter(isRecord).map((l): CostLeftover => {
      const id = str(l.id);
      const name = str(l.name);
      return { kind: str(l.kind) ?? 'resource', ...(id ? { id } : {}), ...(name ? { name } : {}), reason: str(l.reason) ?? 'not deleted', test: str(l.test) ?? '' };
    });
    files.leftovers = { created: count(leftovers.created), items };
  }
  const plan = readJson(join(dir, COST_FILES.plan), window);
  if (plan) {
    const cost = optionalAmount(plan.estimatedCostUsd);
    const workerTime = workerTimeOf(plan.workerTime);
    files.plan = { counts: countsOf(plan.counts), pools: Array.isArray(plan.pools) ? plan.pools.filter((p): p is string => typeof p === 'string') : [], requests: count(plan.requests), ...(cost !== undefined ? { estimatedCostUsd: cost } : {}), ...(workerTime ? { workerTime } : {}) };
  }
  return files;
}

const hasFiles = (f: CostFiles): boolean => Boolean(f.usage || f.pacing || f.leftovers || f.plan);

/** The section with the files' parts added (a file's part replaces any the section had). */
export function addCostFiles(section: CostSection | undefined, files: CostFiles): CostSection | undefined {
  if (!hasFiles(files)) return section;
  const s: CostSection = structuredClone(section ?? emptySection());
  if (files.usage) {
    const u = files.usage;
    s.sources.usage = true;
    s.requests.run = u.requests;
    s.created.run = { ...u.created };
    s.created.byShape = { ...u.byShape };
    s.podMinutes = { gpu: { ...u.podMinutes.gpu }, cpu: { ...u.podMinutes.cpu } };
    if (u.estimatedCostUsd !== undefined) s.estimatedCostUsd = u.estimatedCostUsd;
    s.unpriced = u.unpriced;
    if (u.workerTime) s.workerTime = { ...s.workerTime, observed: { ...u.workerTime } };
  }
  if (files.pacing) {
    s.sources.pacing = true;
    s.rateLimit = { waitedMs: files.pacing.totalMs, retried: files.pacing.retried, gaveUp: files.pacing.gaveUp, tests: files.pacing.tests };
  }
  if (files.leftovers) {
    s.sources.leftovers = true;
    s.leftovers = { created: files.leftovers.created, items: files.leftovers.items.map((l) => ({ ...l })) };
  }
  if (files.plan) {
    s.sources.plan = true;
    s.created.planned = { ...files.plan.counts };
    s.plan = { pools: [...files.plan.pools], requests: files.plan.requests, ...(files.plan.estimatedCostUsd !== undefined ? { estimatedCostUsd: files.plan.estimatedCostUsd } : {}) };
    if (files.plan.workerTime) s.workerTime = { ...s.workerTime, planned: { ...files.plan.workerTime } };
  }
  return s;
}

/** Whether the section already holds a file's part (then publishing again reads none). */
const fromFiles = (c: CostSection | undefined): boolean => Boolean(c && (c.sources.usage || c.sources.pacing || c.sources.leftovers || c.sources.plan));

/**
 * The report with the files beside it in `dir` added to its cost section, when they are from
 * its run. A report of an older schema version renders as it was written; a merged report's
 * section was summed from its shards, and the files in the folder are at most one shard's.
 */
export function withCostFiles(report: ConformanceReport, dir: string): ConformanceReport {
  if (report.schemaVersion !== REPORT_SCHEMA_VERSION || report.run.configuration.mergedShards !== undefined || fromFiles(report.cost)) return report;
  const cost = addCostFiles(report.cost, readCostFiles(dir, { from: report.run.startedAt, to: report.run.finishedAt }));
  return cost && cost !== report.cost ? { ...report, cost } : report;
}

const sumOptional = <T>(parts: readonly (T | undefined)[], add: (a: T, b: T) => T): T | undefined =>
  parts.reduce<T | undefined>((acc, p) => (p === undefined ? acc : acc === undefined ? structuredClone(p) : add(acc, p)), undefined);

const sumNumber = (parts: readonly (number | undefined)[]): number | undefined => sumOptional(parts, (a, b) => a + b);

/**
 * The sections of partial reports summed: each shard ran other tests and wrote its own files,
 * so counts, minutes, waits and costs add up and the heaviest tests are the heaviest of every
 * shard's. A shard without a section (an older report) adds nothing.
 */
export function mergeCost(sections: readonly (CostSection | undefined)[]): CostSection | undefined {
  const present = sections.filter((s): s is CostSection => s !== undefined);
  if (present.length === 0) return undefined;
  const s = emptySection();
  for (const p of present) {
    s.sources.tests += p.sources.tests;
    for (const k of ['usage', 'pacing', 'leftovers', 'plan'] as const) s.sources[k] ||= p.sources[k];
    s.requests.total += p.requests.total;
    addNumbers(s.requests.bySurface, p.requests.bySurface);
    addCounts(s.created.tests, p.created.tests);
  }
  s.requests.top = heaviest(present.flatMap((p) => p.requests.top));
  const run = sumNumber(present.map((p) => p.requests.run));
  if (run !== undefined) s.requests.run = run;
  const created = sumOptional(present.map((p) => p.created.run), addCounts);
  if (created) s.created.run = created;
  const planned = sumOptional(present.map((p) => p.created.planned), addCounts);
  if (planned) s.created.planned = planned;
  const byShape = sumOptional(present.map((p) => p.created.byShape), addNumbers);
  if (byShape) s.created.byShape = byShape;
  const plan = sumOptional(present.map((p) => p.plan), (a, b) => {
    const cost = sumNumber([a.estimatedCostUsd, b.estimatedCostUsd]);
    return { pools: [...new Set([...a.pools, ...b.pools])].sort(), requests: a.requests + b.requests, ...(cost !== undefined ? { estimatedCostUsd: cost } : {}) };
  });
  if (plan) s.plan = plan;
  const plannedWork = present.map((p) => p.workerTime?.planned).reduce<WorkerTimePlan | undefined>((a, w) => addWorkerTime(a, w), undefined);
  const observedWork = sumOptional(present.map((p) => p.workerTime?.observed), addObserved);
  if (plannedWork || observedWork) s.workerTime = { ...(plannedWork ? { planned: plannedWork } : {}), ...(observedWork ? { observed: observedWork } : {}) };
  const minutes = sumOptional(present.map((p) => p.podMinutes), (a, b) => ({ gpu: addNumbers(a.gpu, b.gpu), cpu: addNumbers(a.cpu, b.cpu) }));
  if (minutes) s.podMinutes = minutes;
  const cost = sumNumber(present.map((p) => p.estimatedCostUsd));
  if (cost !== undefined) s.estimatedCostUsd = cost;
  const unpriced = sumNumber(present.map((p) => p.unpriced));
  if (unpriced !== undefined) s.unpriced = unpriced;
  const waits = sumOptional(present.map((p) => p.rateLimit), (a, b) => ({ waitedMs: a.waitedMs + b.waitedMs, retried: a.retried + b.retried, gaveUp: a.gaveUp + b.gaveUp, tests: a.tests + b.tests }));
  if (waits) s.rateLimit = waits;
  const left = sumOptional(present.map((p) => p.leftovers), (a, b) => ({ created: a.created + b.created, items: [...a.items, ...b.items] }));
  if (left) s.leftovers = left;
  return s;
}

/** Two shards' provisioned endpoints: lifetimes add up; priced only when both are. */
const addObserved = (a: ObservedWorkerTime, b: ObservedWorkerTime): ObservedWorkerTime => {
  const cost = a.estimatedCostUsd !== undefined && b.estimatedCostUsd !== undefined ? a.estimatedCostUsd + b.estimatedCostUsd : undefined;
  return { endpoints: a.endpoints + b.endpoints, endpointMinutes: a.endpointMinutes + b.endpointMinutes, workerMinutesAtMost: a.workerMinutesAtMost + b.workerMinutesAtMost, ...(cost !== undefined ? { estimatedCostUsd: cost } : {}) };
};

/** Every creation the section knows of: the run's record when there is one, else the tests' own. */
export const createdOf = (c: CostSection): CostCounts => c.created.run ?? c.created.tests;

/** Pod-minutes of every type and flavor. */
export const podMinutesOf = (c: CostSection): number | undefined =>
  c.podMinutes ? [...Object.values(c.podMinutes.gpu), ...Object.values(c.podMinutes.cpu)].reduce((a, b) => a + b, 0) : undefined;
