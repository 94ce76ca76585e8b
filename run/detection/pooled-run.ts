/** `cpc detect --pooled`: the detection matrix as on a deployment (pooled.ts), its result file and exit code. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { faultCatalog } from '../../emulator/faults.js';
import { ConfigError } from '../../lib/errors.js';
import { isPooled, listSuite, planPooled, pooledText, runPooledMatrix } from './pooled.js';

type Catalog = Record<string, { rule: string; description: string }>;

/**
 * For the faults whose rule a pooled test declares (or those given): `detection-pooled.json`,
 * exit 1 unless every fault is detected.
 */
export async function runPooledDetection(options: { outDir: string; faults: string[]; perFault: number; scale: number }): Promise<number> {
  const unknown = options.faults.filter((f) => !Object.hasOwn(faultCatalog, f));
  if (unknown.length) throw new ConfigError(`unknown fault(s): ${unknown.join(', ')}`);
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const catalog: Catalog = options.faults.length ? Object.fromEntries(options.faults.map((f) => [f, faultCatalog[f as keyof typeof faultCatalog]])) : faultCatalog;
  const listed = await listSuite();
  const plans = planPooled(listed, catalog, options.perFault, options.faults.length > 0);
  const matrix = await runPooledMatrix(plans, join(outDir, 'detection-pooled'), options.scale);
  const pooled = new Set(listed.filter(isPooled).map((t) => `${t.file} ${t.title}`));
  const covered = new Set(plans.flatMap((p) => [...p.tests, ...p.beside]).map((t) => `${t.file} ${t.title}`).filter((k) => pooled.has(k))).size;
  writeFileSync(join(outDir, 'detection-pooled.json'), JSON.stringify({ ...matrix, pooledTests: pooled.size, covered }, null, 2) + '\n');
  process.stdout.write('\n' + pooledText(matrix, covered, pooled.size) + '\n');
  return matrix.detected === matrix.faults ? 0 : 1;
}
