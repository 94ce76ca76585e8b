/**
 * The test command of the mutation run (`stryker.config.mjs`, Stryker's `command` runner),
 * started by Stryker inside its sandbox, once per mutant:
 *
 *   node --import tsx bin/commands/mutation-run.ts
 *
 * Stryker names the active mutant in `__STRYKER_ACTIVE_MUTANT__`. This command runs Playwright
 * with that environment and without any target variable, so Playwright's global setup starts
 * the sandbox's own (instrumented) emulator in its process and the mutant is live there. Only
 * the specs of the mutant's group (`mutation/scope.json`) run, and Playwright stops at the
 * first failure: a killed mutant costs seconds, a survivor one pass of its group. With no
 * mutant active (Stryker's dry run) every group runs, which also sets Stryker's timeout.
 *
 * Exit code: Playwright's (0: the mutant survived).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface MutationGroup { name: string; mutate: string[]; specs: string[] }

/** Stryker's switch for mutant `id` in instrumented code (`stryMutAct_9fa48("12")`). */
const mutantSwitch = (id: string): string => `stryMutAct_9fa48(${JSON.stringify(id)})`;

/**
 * The property tests' seed and budgets in a mutation run: a fixed seed, so every mutant meets
 * the same cases, and a smaller pod budget (40 cases per property instead of the suite's 200:
 * those properties cost most of a pods run), so a full run stays within its time;
 * CPC_MUTATION_* variables change them.
 */
export const MUTATION_PROPERTY_ENV = {
  CPC_SEED: process.env.CPC_MUTATION_SEED ?? '424242',
  CPC_PROPERTY_RUNS: process.env.CPC_MUTATION_PROPERTY_RUNS ?? '40',
  CPC_JOB_MODEL_RUNS: process.env.CPC_MUTATION_JOB_MODEL_RUNS ?? '60',
};

/** Variables that would point the suite at another target or switch faults on: never inherited. */
const TARGET_VARIABLES = /^CPC_(BASE_URL|SERVERLESS_URL|REST_V1_URL|API_KEY.*|ENDPOINT_ID|TEMPLATE_ID|MODEL_ENDPOINT_ID|TARGET_KIND|EMULATOR_FAULTS|DETECTION|PATH)$/;

export function readGroups(root: string): MutationGroup[] {
  return (JSON.parse(readFileSync(join(root, 'mutation/scope.json'), 'utf8')) as { groups: MutationGroup[] }).groups;
}

/** The group whose instrumented files hold mutant `id`; undefined when none does (run all). */
export function groupOf(root: string, groups: readonly MutationGroup[], id: string): MutationGroup | undefined {
  const needle = mutantSwitch(id);
  return groups.find((g) => g.mutate.some((file) => readFileSync(join(root, file), 'utf8').includes(needle)));
}

/** Playwright's arguments for a mutant (or for the dry run when `group` is undefined). */
export function playwrightArgs(groups: readonly MutationGroup[], group: MutationGroup | undefined, workers: number): string[] {
  const specs = (group ? [group] : groups).flatMap((g) => g.specs);
  // A request the mutant leaves unanswered fails its test after 20 s, not the suite's 60 s
  // (no test of these groups needs 5 s in a normal run; the job model sets its own limit).
  return ['test', '--project=contract', '--project=property', ...specs, `--workers=${workers}`, '--reporter=dot', '--retries=0', '--timeout=20000',
    ...(group ? ['--max-failures=1'] : [])];
}

async function main(): Promise<number> {
  const root = process.cwd();
  const groups = readGroups(root);
  const active = process.env.__STRYKER_ACTIVE_MUTANT__;
  const group = active === undefined ? undefined : groupOf(root, groups, active);
  if (active !== undefined && !group) console.error(`mutant ${active} is in no group of mutation/scope.json: running every group`);
  const rawDir = mkdtempSync(join(tmpdir(), 'cpc-mutation-raw-'));
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !TARGET_VARIABLES.test(k)));
  Object.assign(env, MUTATION_PROPERTY_ENV, { CPC_RAW_DIR: rawDir, FORCE_COLOR: '0' });
  // Infinite loops end at Stryker's hit limit in the emulator's process (mutation/hit-limit.mjs).
  if (active !== undefined) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(join(root, 'mutation/hit-limit.mjs')).href}`.trim();
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const args = playwrightArgs(groups, group, Number(process.env.CPC_MUTATION_WORKERS ?? 2));
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
    });
  } finally {
    rmSync(rawDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
