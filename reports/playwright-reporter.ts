import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { redactText, redactValue } from '../lib/redact.js';
import type { Evidence } from '../lib/evidence.js';
import { RAW_FILE, type RawRunFooter, type RawRunHeader, type RawTestResult } from './raw.js';

/**
 * Writes one JSON line per finished test to `$CPC_RAW_DIR/playwright.jsonl` as it happens,
 * so an interrupted run still leaves every result it reached for the report.
 */
export default class RawResultsReporter implements Reporter {
  #file = '';
  #root = process.cwd();

  onBegin(config: FullConfig, _suite: Suite): void {
    const dir = process.env.CPC_RAW_DIR ?? join(this.#root, 'reports', 'out', 'raw');
    mkdirSync(dir, { recursive: true });
    this.#file = join(dir, RAW_FILE);
    const header: RawRunHeader = { kind: 'run', startedAt: new Date().toISOString(), workers: config.workers };
    writeFileSync(this.#file, JSON.stringify(header) + '\n');
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const rules = test.annotations.filter((a) => a.type === 'rule').map((a) => a.description ?? '');
    const runtime = result.annotations ?? [];
    const all = [...test.annotations, ...runtime];
    const failedRules = [...new Set(all.filter((a) => a.type === 'rule-failed').map((a) => a.description ?? ''))];
    const observed = all.filter((a) => a.type === 'observed').map((a) => JSON.parse(a.description ?? '{}') as { rule: string; value: unknown });
    const skip = all.find((a) => a.type === 'skip');
    const property = all.find((a) => a.type === 'property');
    const evidenceAttachment = result.attachments.find((a) => a.name === 'evidence' && a.body);
    const record: RawTestResult = {
      id: test.id,
      project: test.parent.project()?.name ?? '',
      file: relative(this.#root, test.location.file),
      title: test.title,
      titlePath: test.titlePath().slice(3),
      status: result.status,
      expectedStatus: test.expectedStatus,
      durationMs: result.duration,
      rules: [...new Set(rules)],
      failedRules,
      observed,
      ...(skip?.description ? { skipReason: skip.description } : {}),
      ...(result.error ? { error: redactText(stripAnsi(result.error.message ?? String(result.error.value ?? 'error'))).slice(0, 4000) } : {}),
      ...(evidenceAttachment?.body ? { evidence: redactValue(JSON.parse(evidenceAttachment.body.toString('utf8')) as Evidence[]) } : {}),
      ...(property?.description ? { property: JSON.parse(property.description) as RawTestResult['property'] } : {}),
    };
    appendFileSync(this.#file, JSON.stringify(record) + '\n');
  }

  onEnd(result: FullResult): void {
    const footer: RawRunFooter = { kind: 'end', finishedAt: new Date().toISOString(), status: result.status };
    appendFileSync(this.#file, JSON.stringify(footer) + '\n');
  }

  printsToStdio(): boolean {
    return false;
  }
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
