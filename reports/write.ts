import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './model.js';
import type { Renderer } from './render/renderer.js';
import { jsonRenderer } from './render/json.js';
import { junitRenderer } from './render/junit.js';
import { redactText } from '../lib/redact.js';
import type { RawTestResult } from './raw.js';
import { RAW_FILE } from './raw.js';

/** Every format the suite writes, behind one interface. */
export const renderers: Renderer[] = [jsonRenderer, junitRenderer];

/** Renders every format into `dir`; each file passes through redaction once more. */
export function writeReports(report: ConformanceReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return renderers.map((r) => {
    const path = join(dir, r.fileName);
    writeFileSync(path, redactText(r.render(report)));
    return path;
  });
}

/** Reads the reporter's JSON lines; tolerates a torn last line from an interrupted run. */
export function readRaw(dir: string): { tests: RawTestResult[]; ended: boolean; startedAt?: string } {
  const path = join(dir, RAW_FILE);
  if (!existsSync(path)) return { tests: [], ended: false };
  const tests: RawTestResult[] = [];
  let ended = false;
  let startedAt: string | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let value: { kind?: string; startedAt?: string };
    try { value = JSON.parse(line) as typeof value; } catch { continue; }
    if (value.kind === 'run') startedAt = value.startedAt;
    else if (value.kind === 'end') ended = true;
    else tests.push(value as unknown as RawTestResult);
  }
  return { tests, ended, ...(startedAt ? { startedAt } : {}) };
}
