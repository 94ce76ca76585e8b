import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_FILE, type RawPlannedTest, type RawRunFooter, type RawTestResult } from './raw.js';

/** What the reporter left behind, however the run ended. */
export interface RawRun {
  tests: RawTestResult[];
  /** Every test selected when the run began (empty for a run that never began). */
  planned: RawPlannedTest[];
  /** True when the footer line is there (the runner ended on its own). */
  ended: boolean;
  /** The runner's own final status, from the footer. */
  status?: RawRunFooter['status'];
  startedAt?: string;
}

/**
 * Reads the reporter's JSON lines. Tolerates a torn last line (a run killed mid-write) and
 * a missing file (a run that never started): both simply yield fewer results.
 */
export function readRaw(dir: string): RawRun {
  const path = join(dir, RAW_FILE);
  const run: RawRun = { tests: [], planned: [], ended: false };
  if (!existsSync(path)) return run;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (value.kind === 'run') run.startedAt = String(value.startedAt);
    else if (value.kind === 'plan') run.planned = (value.tests as RawPlannedTest[] | undefined) ?? [];
    else if (value.kind === 'end') {
      run.ended = true;
      run.status = value.status as RawRunFooter['status'];
    } else if (typeof value.id === 'string') run.tests.push(value as unknown as RawTestResult);
  }
  return run;
}
