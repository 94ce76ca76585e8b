/**
 * The detection matrix as on a deployment (`cpc detect --pooled`): every other matrix runs in
 * emulator worlds, where each test has its own pods and volumes, so a fault that sharing hides
 * would never show. Here each fault gets a standalone emulator with the fault on in its one
 * world, behind the proxy that hides its control surface, and a `cpc conformance` run of one
 * worker against it: pools shared, the clock real, the cleanup and its look at the account as
 * on a deployment. The faults are those whose rule a pooled test (one that borrows a pool)
 * declares, each run with the tests of its rule; every pooled test runs in one fault's run at least (a test no fault's rule
 * selects goes beside the fault whose run is smallest), so the subset covers every pooled test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListedTest } from '../preflight/types.js';
import type { ConformanceReport } from '../../reports/model.js';
import type { LeftoversFile } from '../../lib/protocol.js';
import { BLAST_LIMIT, type DetectionMatrix, type MatrixRow } from './matrix.js';

/** A row of the pooled matrix: a detection row, and how many resources its run left on the account (-1: not measured). */
export type PooledRow = MatrixRow & { leftovers: number };
export type PooledMatrix = Omit<DetectionMatrix, 'rows'> & { rows: PooledRow[] };
import { startHidingProxy, startStandaloneEmulator } from '../standalone.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The variables that point a run at the standalone emulator's account (its keys and seeded ids). */
const TARGET_VARS = ['CPC_API_KEY', 'CPC_API_KEY_READONLY', 'CPC_API_KEY_OTHER', 'CPC_ENDPOINT_ID', 'CPC_TEMPLATE_ID', 'CPC_MODEL_ENDPOINT_ID'] as const;

export interface PooledPlan { fault: string; rule: string; description: string; tests: ListedTest[]; beside: ListedTest[] }

/** A pooled test: a contract test that borrows at least one pool. */
export const isPooled = (t: ListedTest): boolean => (t.creates.pools?.length ?? 0) > 0 && t.file.startsWith('contract/');

/**
 * For each fault whose rule a pooled test declares (or `named` on purpose): the contract tests
 * of its rule, pooled or not (at most `perFault`, most specific first). Then each pooled test
 * no fault selected, beside the smallest run.
 */
export function planPooled(listed: readonly ListedTest[], catalog: Record<string, { rule: string; description: string }>, perFault: number, named = false): PooledPlan[] {
  const pooled = [...new Map(listed.filter(isPooled).map((t) => [`${t.file} ${t.title}`, t])).values()];
  const contract = [...new Map(listed.filter((t) => t.file.startsWith('contract/')).map((t) => [`${t.file} ${t.title}`, t])).values()];
  const bySpecificity = (a: ListedTest, b: ListedTest) => a.rules.length - b.rules.length;
  const plans: PooledPlan[] = Object.entries(catalog).map(([fault, def]) => {
    const pooledOnes = pooled.filter((t) => t.rules.includes(def.rule));
    // The run is a deployment's: every test of the rule may serve (a fault of createPod is met by
    // a test that creates, not by one that only borrows), most specific first. A fault whose rule
    // no pooled test declares runs only when named on purpose.
    const tests = pooledOnes.length || named ? contract.filter((t) => t.rules.includes(def.rule)).sort(bySpecificity) : [];
    return { fault, ...def, beside: [], tests: tests.slice(0, perFault) };
  }).filter((p) => p.tests.length > 0);
  const covered = new Set(plans.flatMap((p) => p.tests.map((t) => `${t.file} ${t.title}`)));
  for (const t of pooled) {
    if (covered.has(`${t.file} ${t.title}`) || plans.length === 0) continue;
    const smallest = plans.reduce((a, b) => (a.tests.length + a.beside.length <= b.tests.length + b.beside.length ? a : b));
    smallest.beside.push(t);
    covered.add(`${t.file} ${t.title}`);
  }
  return plans;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs `cpc conformance` as a user would, output to `log`; resolves with its exit code. */
function cpcRun(args: readonly string[], env: NodeJS.ProcessEnv, log: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'cpc.ts'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  return new Promise((resolve) => child.on('close', (code) => { writeFileSync(log, out); resolve(code); }));
}

/** One fault's run against its own standalone emulator behind the hiding proxy; its matrix row. */
async function runFault(plan: PooledPlan, outDir: string, scale: number): Promise<PooledRow> {
  const dir = join(outDir, plan.fault);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const emulator = await startStandaloneEmulator(['--faults', plan.fault, '--clock', 'auto', '--scale', String(scale)]);
  const proxy = await startHidingProxy(emulator.url).catch(async (e: unknown) => { await emulator.stop(); throw e; });
  try {
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CPC_')));
    for (const k of TARGET_VARS) if (emulator.vars[k]) env[k] = emulator.vars[k];
    Object.assign(env, { CPC_BASE_URL: proxy.url, CPC_SERVERLESS_URL: proxy.url, CPC_REST_V1_URL: proxy.url, FORCE_COLOR: '0' });
    const titles = [...plan.tests, ...plan.beside].map((t) => escape(t.title));
    await cpcRun(['conformance', '--skip-load', '--skip-preflight', '--project', 'contract', '--workers', '1', '--grep', `(${titles.join('|')})`,
      '--out', dir, '--artifacts', join(dir, 'artifacts')], env, join(dir, 'run.log'));
  } finally {
    await proxy.stop();
    await emulator.stop();
  }
  return rowOf(plan, dir);
}

/** The row of one fault from its run's report: detected when its rule failed. */
function rowOf(plan: PooledPlan, dir: string): PooledRow {
  const file = join(dir, 'conformance.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport : undefined;
  const leftoverFile = join(dir, 'leftovers.json');
  const leftovers = existsSync(leftoverFile) ? (JSON.parse(readFileSync(leftoverFile, 'utf8')) as LeftoversFile).leftovers.length : -1;
  const ran = (report?.tests ?? []).filter((t) => t.status !== 'skipped' && t.status !== 'notRun');
  const failed = ran.filter((t) => t.status === 'failed');
  const failedRules = (report?.rules ?? []).filter((r) => r.verdict === 'fail').map((r) => r.id).sort();
  const failedMust = (report?.rules ?? []).filter((r) => r.verdict === 'fail' && r.level === 'MUST').length;
  const witness = failed.find((t) => t.failedRules.includes(plan.rule));
  const detection: MatrixRow['detection'] = ran.length === 0 ? 'no-tests' : witness ? 'detected' : failed.length ? 'other-rule' : 'missed';
  return {
    fault: plan.fault, rule: plan.rule, description: plan.description, detection, tests: ran.length, failedTests: failed.length, failedRules, failedMust,
    blockedTests: failed.filter((t) => t.failedRules.length === 0).length, ...(witness ? { witness: `${witness.file} › ${witness.title}` } : {}), leftovers,
  };
}

/** Every planned fault in turn (one worker, one emulator at a time): the matrix, with what each run left behind. */
export async function runPooledMatrix(plans: readonly PooledPlan[], outDir: string, scale: number): Promise<PooledMatrix> {
  const rows: PooledRow[] = [];
  for (const plan of plans) {
    process.stdout.write(`pooled: ${plan.fault} (${plan.tests.length} test(s) of ${plan.rule}${plan.beside.length ? `, ${plan.beside.length} beside` : ''})\n`);
    rows.push(await runFault(plan, outDir, scale));
  }
  return {
    schemaVersion: '1.0.0', generatedAt: new Date().toISOString(), faults: rows.length, detected: rows.filter((r) => r.detection === 'detected').length,
    overLimit: rows.filter((r) => r.failedMust > BLAST_LIMIT).length, rows,
  };
}

/** Every test of the suite as Playwright lists it, with its rules and declarations (against a throwaway embedded emulator). */
export async function listSuite(): Promise<ListedTest[]> {
  const { parseEmbeddedRunConfig } = await import('../../lib/run-config.js');
  const { startEmbedded } = await import('../embedded.js');
  const { listPlaywright } = await import('../playwright.js');
  const { listedTests } = await import('../preflight/rules.js');
  const emulator = await startEmbedded();
  try {
    return listedTests(await listPlaywright({ ...parseEmbeddedRunConfig(process.env), target: emulator.target, faults: [] }));
  } finally {
    await emulator.close();
  }
}

export const pooledText = (m: PooledMatrix, covered: number, pooledTests: number): string => [
  `Pooled detection matrix (as on a deployment: control surface hidden, pools shared, one worker): ${m.detected}/${m.faults} faults detected; ${covered} of ${pooledTests} pooled tests ran`,
  ...m.rows.map((r) => `  ${r.detection === 'detected' ? '✓' : '✗'} ${r.fault.padEnd(40)} ${r.rule.padEnd(44)} ${r.detection} (tests ${r.tests}, failed on: ${r.failedRules.join(', ') || 'nothing'}; left behind: ${r.leftovers < 0 ? 'not measured' : r.leftovers})`),
].join('\n');
