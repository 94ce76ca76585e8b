import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { runConfig } from '../lib/run-config.js';
import { ANNOTATION, ATTACHMENT } from '../lib/protocol.js';
import type { Evidence } from '../lib/evidence.js';
import { RAW_FILE, type PropertyRecord, type RawPlannedTest, type RawRunFooter, type RawRunHeader, type RawRunPlan, type RawTestResult, type TestUsage } from './raw.js';
import { harvestValue, redactValue } from '../lib/redact.js';

const parse = <T>(text: string | undefined): T | undefined => {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
};

/**
 * Writes one JSON line per finished test to `<rawDir>/playwright.jsonl` as it happens (the
 * `rawDir` option, else the run configuration's, else reports/out/raw),
 * so an interrupted run still leaves every result it reached for the report. The second line
 * lists every test selected for the run, so tests never reached still show as not run.
 * Every line is scrubbed of API keys: the configured ones, and any key a line reveals
 * (the workers mint keys this process never sees).
 */
export default class RawResultsReporter implements Reporter {
  #file = '';
  #root = process.cwd();
  /** Keys learnt so far, removed from every line; a newly learnt key is removed from earlier lines too. */
  #keys = new Set<string>();
  #lines: string[] = [];
  readonly #rawDir: string | undefined;

  /** `rawDir`: Playwright's reporter option (`['./reports/playwright-reporter.ts', { rawDir }]`). */
  constructor(options: { rawDir?: string } = {}) {
    this.#rawDir = options.rawDir;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    // Reading the run configuration registers its keys with lib/redact.ts.
    const dir = this.#rawDir ?? runConfig().rawDir ?? join(this.#root, 'reports', 'out', 'raw');
    mkdirSync(dir, { recursive: true });
    this.#file = join(dir, RAW_FILE);
    const header: RawRunHeader = { kind: 'run', startedAt: new Date().toISOString(), workers: config.workers };
    const plan: RawRunPlan = { kind: 'plan', tests: suite.allTests().map((t) => this.#planned(t)) };
    this.#lines = [JSON.stringify(header), JSON.stringify(redactValue(plan))];
    writeFileSync(this.#file, this.#lines.join('\n') + '\n');
  }

  #planned(test: TestCase): RawPlannedTest {
    return {
      id: test.id,
      project: test.parent.project()?.name ?? '',
      file: relative(this.#root, test.location.file),
      title: test.title,
      titlePath: test.titlePath().slice(3),
      rules: [...new Set(test.annotations.filter((a) => a.type === ANNOTATION.rule).map((a) => a.description ?? ''))],
    };
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const all = [...test.annotations, ...(result.annotations ?? [])];
    const failedRules = [...new Set(all.filter((a) => a.type === ANNOTATION.ruleFailed).map((a) => a.description ?? ''))];
    const observed = all.filter((a) => a.type === ANNOTATION.observed).map((a) => parse<{ rule: string; value: unknown }>(a.description)).filter((o) => o !== undefined && typeof o.rule === 'string') as { rule: string; value: unknown }[];
    const unchecked = all.filter((a) => a.type === ANNOTATION.ruleUnchecked).map((a) => parse<{ rule: string; reason: string }>(a.description))
      .filter((u): u is { rule: string; reason: string } => typeof u?.rule === 'string' && typeof u.reason === 'string');
    const skip = all.find((a) => a.type === ANNOTATION.skip);
    const property = parse<PropertyRecord>(all.find((a) => a.type === ANNOTATION.property)?.description);
    const fault = all.find((a) => a.type === ANNOTATION.fault)?.description;
    const blocked = all.find((a) => a.type === ANNOTATION.blocked)?.description;
    const usage = usageOf(test, result);
    const evidenceAttachment = result.attachments.find((a) => a.name === ATTACHMENT.evidence && a.body);
    const evidence = parse<Evidence[]>(evidenceAttachment?.body?.toString('utf8'));
    const record: RawTestResult = {
      ...this.#planned(test),
      status: result.status,
      expectedStatus: test.expectedStatus,
      durationMs: result.duration,
      startedAt: result.startTime.toISOString(),
      parallelIndex: result.parallelIndex,
      failedRules,
      ...(unchecked.length ? { uncheckedRules: unchecked } : {}),
      observed,
      ...(skip?.description ? { skipReason: skip.description } : {}),
      ...(blocked && result.status === 'skipped' ? { blocked } : {}),
      ...(result.error ? { error: stripAnsi(result.error.message ?? String(result.error.value ?? 'error')).slice(0, 4000) } : {}),
      ...(Array.isArray(evidence) ? { evidence } : {}),
      ...(property ? { property } : {}),
      ...(fault ? { fault } : {}),
      ...(usage ? { usage } : {}),
    };
    this.#append(record);
  }

  /** Appends a scrubbed line; rewrites the file when a key learnt now appears in an earlier line. */
  #append(record: RawTestResult): void {
    const known = this.#keys.size;
    harvestValue(record, this.#keys);
    const fresh = [...this.#keys].slice(known);
    if (fresh.length && this.#lines.some((l) => fresh.some((k) => l.includes(k)))) {
      this.#lines = this.#lines.map((l) => JSON.stringify(redactValue(JSON.parse(l) as unknown, this.#keys)));
      writeFileSync(this.#file, this.#lines.join('\n') + '\n');
    }
    const line = JSON.stringify(redactValue(record, this.#keys));
    this.#lines.push(line);
    appendFileSync(this.#file, line + '\n');
  }

  onEnd(result: FullResult): void {
    const footer: RawRunFooter = { kind: 'end', finishedAt: new Date().toISOString(), status: result.status };
    this.#lines.push(JSON.stringify(footer));
    appendFileSync(this.#file, JSON.stringify(footer) + '\n');
  }

  printsToStdio(): boolean {
    return false;
  }
}

/**
 * This attempt's `usage` annotations, summed (one per API client a test used). They are read from
 * the result: the test's own list repeats the last attempt's, so reading both would count twice.
 */
function usageOf(test: TestCase, result: TestResult): TestUsage | undefined {
  const own = (result.annotations ?? []).filter((a) => a.type === ANNOTATION.usage);
  const found = (own.length ? own : test.annotations.filter((a) => a.type === ANNOTATION.usage))
    .map((a) => parse<Partial<TestUsage>>(a.description))
    .filter((u): u is Partial<TestUsage> => typeof u === 'object' && u !== null);
  if (found.length === 0) return undefined;
  const usage: TestUsage = { requests: { total: 0, bySurface: {} }, created: {} };
  const add = (into: Record<string, number>, from: unknown) => {
    if (typeof from !== 'object' || from === null) return;
    for (const [k, v] of Object.entries(from)) if (typeof v === 'number' && Number.isFinite(v)) into[k] = (into[k] ?? 0) + v;
  };
  for (const u of found) {
    if (typeof u.requests?.total === 'number' && Number.isFinite(u.requests.total)) usage.requests.total += u.requests.total;
    add(usage.requests.bySurface, u.requests?.bySurface);
    add(usage.created, u.created);
  }
  return usage;
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
