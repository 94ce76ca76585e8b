/**
 * Writes contract/request-estimates.json, the per-test request counts preflight sums into a
 * run's expected requests, from the raw results of a deployment-like run (each test's `usage`:
 * the requests it sent). Run it after a run against a deployment, or the standalone emulator
 * behind scripts/hide-control-proxy.ts:
 *
 *   node --import tsx scripts/request-estimates.ts reports/out/raw/playwright.jsonl
 *
 * A test the file does not list (new since) is estimated at the median of those it lists.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: request-estimates.ts RAW_JSONL (the raw results of a deployment-like run)\n');
  process.exit(2);
}
const perTest: Record<string, number> = {};
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const r = JSON.parse(line) as { file?: string; title?: string; status?: string; usage?: { requests?: { total?: number } } };
  if (!r.file || !r.title || r.status === undefined) continue;
  const key = `${r.file} › ${r.title}`;
  perTest[key] = (perTest[key] ?? 0) + (r.usage?.requests?.total ?? 0);
}
const counts = Object.values(perTest).sort((a, b) => a - b);
const median = counts.length ? counts[Math.floor(counts.length / 2)]! : 0;
const out = join(fileURLToPath(new URL('..', import.meta.url)), 'contract', 'request-estimates.json');
writeFileSync(out, JSON.stringify({ default: median, perTest: Object.fromEntries(Object.entries(perTest).sort(([a], [b]) => a.localeCompare(b))) }, null, 2) + '\n');
process.stdout.write(`${out}: ${Object.keys(perTest).length} tests, ${counts.reduce((a, b) => a + b, 0)} requests in all, default ${median}\n`);
