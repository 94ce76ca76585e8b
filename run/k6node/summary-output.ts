/**
 * What happens to `handleSummary`'s answer, as in k6's handleSummaryResult: `stdout` and
 * `stderr` are printed, every other key is a file path (relative to the working directory)
 * opened for writing without creating folders; a file that cannot be written is reported and
 * does not change the exit code. Without handleSummary, a short text summary is printed.
 */
import { writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export function writeSummaryOutputs(result: unknown, cwd: string, out: (t: string) => void, err: (t: string) => void): { files: string[]; errors: string[] } {
  const files: string[] = [];
  const errors: string[] = [];
  if (result === undefined || result === null) return { files, errors };
  if (typeof result !== 'object') return { files, errors: ['handleSummary() must return an object of outputs'] };
  for (const [key, value] of Object.entries(result as Record<string, unknown>)) {
    const content = typeof value === 'string' ? value : value instanceof ArrayBuffer ? Buffer.from(value) : JSON.stringify(value);
    if (key === 'stdout') out(String(content));
    else if (key === 'stderr') err(String(content));
    else {
      const path = isAbsolute(key) ? key : join(cwd, key);
      try {
        writeFileSync(path, content);
        files.push(path);
      } catch (e) {
        errors.push(`could not open '${key}': ${(e as Error).message}`);
      }
    }
  }
  return { files, errors };
}

interface Data { metrics: Record<string, { type: string; values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>; root_group: { checks: { name: string; passes: number; fails: number }[] } }

/** A compact stand-in for k6's end-of-test summary: thresholds, root checks, request counts. */
export function defaultSummaryText(data: Record<string, unknown>): string {
  const d = data as unknown as Data;
  const lines: string[] = [];
  for (const [name, m] of Object.entries(d.metrics)) {
    for (const [expr, t] of Object.entries(m.thresholds ?? {})) lines.push(`  ${t.ok ? '✓' : '✗'} ${name}: ${expr}`);
  }
  for (const c of d.root_group.checks) lines.push(`  ${c.fails === 0 ? '✓' : '✗'} ${c.name} (${c.passes}/${c.passes + c.fails})`);
  const reqs = d.metrics.http_reqs?.values.count ?? 0;
  lines.push(`  http_reqs: ${reqs}   iterations: ${d.metrics.iterations?.values.count ?? 0}`);
  return lines.join('\n') + '\n';
}
