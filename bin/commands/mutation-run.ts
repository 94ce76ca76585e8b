/**
 * The test command of the mutation run (`stryker.config.mjs`, Stryker's `command` runner),
 * started by Stryker inside its sandbox, once per mutant:
 *
 *   node --import tsx bin/commands/mutation-run.ts
 *
 * Stryker names the active mutant in `__STRYKER_ACTIVE_MUTANT__`. This command runs Playwright
 * with that environment and without any target variable, so Playwright's global setup starts
 * the sandbox's own (instrumented) emulator in its process and the mutant is live there. Only
 * the specs of the mutant's group (`mutation/scope.json`) run, the ones closest to its file
 * first (`first`), and Playwright stops at the first failure: a killed mutant costs seconds, a
 * survivor one pass of its group. With no mutant active (Stryker's dry run) every group runs,
 * which also sets Stryker's timeout.
 *
 * Exit code: Playwright's (0: the mutant survived).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEmbeddedRunConfig, userSettings } from '../../lib/run-config.js';
import { type RunConfig } from '../../lib/protocol.js';
import { exitOf } from '../../run/child.js';
import { spawnPlaywright } from '../../run/playwright.js';

export interface MutationGroup {
  name: string;
  mutate: string[];
  /** Spec folders or files of the group. */
  specs: string[];
  /** Per mutated file, the spec files that run first (the rest of the group runs when they pass). */
  first?: Record<string, string[]>;
}

/** Stryker's switch for mutant `id` in instrumented code (`stryMutAct_9fa48("12")`). */
const mutantSwitch = (id: string): string => `stryMutAct_9fa48(${JSON.stringify(id)})`;

/**
 * The run configuration of a mutation run (lib/run-config.ts): the embedded emulator, started
 * by global setup in Playwright's process (so the mutant is live there), no ids, faults or
 * replay path of a real target; a fixed seed, so every mutant meets the same cases, and a
 * smaller pod budget (40 cases per property instead of the suite's 200: those properties cost
 * most of a pods run), so a full run stays within its time. CPC_MUTATION_* variables change them.
 */
export function mutationRunConfig(env: NodeJS.ProcessEnv, rawDir: string): RunConfig {
  const { mutation } = userSettings(env);
  const given = parseEmbeddedRunConfig({ ...env, CPC_TEMPLATE_ID: undefined, CPC_MODEL_ENDPOINT_ID: undefined, CPC_PATH: undefined, CPC_EMULATOR_FAULTS: undefined });
  return { ...given, seed: mutation.seed, propertyRuns: mutation.propertyRuns, jobModelRuns: mutation.jobModelRuns, rawDir };
}

export function readGroups(root: string): MutationGroup[] {
  return (JSON.parse(readFileSync(join(root, 'mutation/scope.json'), 'utf8')) as { groups: MutationGroup[] }).groups;
}

/** The group and file whose instrumented code holds mutant `id`; undefined when none does (run all). */
export function locate(root: string, groups: readonly MutationGroup[], id: string): { group: MutationGroup; file: string } | undefined {
  const needle = mutantSwitch(id);
  for (const group of groups) {
    const file = group.mutate.find((f) => readFileSync(join(root, f), 'utf8').includes(needle));
    if (file) return { group, file };
  }
  return undefined;
}

/** Every spec and property file under the given folders or files, in path order. */
export function specFiles(root: string, paths: readonly string[]): string[] {
  const walk = (rel: string): string[] => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return [];
    if (!statSync(abs).isDirectory()) return [rel];
    return readdirSync(abs).sort().flatMap((name) => walk(`${rel}/${name}`));
  };
  return paths.flatMap(walk).filter((f) => /\.(spec|prop)\.ts$/.test(f));
}

/**
 * The Playwright runs for a mutant, in order: its file's `first` specs, then the rest of its
 * group; for the dry run (no mutant), one run of every group.
 */
export function stages(root: string, groups: readonly MutationGroup[], where: { group: MutationGroup; file: string } | undefined): string[][] {
  if (!where) return [groups.flatMap((g) => g.specs)];
  const first = where.group.first?.[where.file] ?? [];
  if (first.length === 0) return [where.group.specs];
  const rest = specFiles(root, where.group.specs).filter((f) => !first.includes(f));
  return rest.length ? [first, rest] : [first];
}

/** `playwright test`'s arguments for one stage; a mutant's runs stop at the first failure. */
export function playwrightArgs(specs: readonly string[], mutant: boolean, workers: number): string[] {
  // A request the mutant leaves unanswered fails its test after 20 s, not the suite's 60 s
  // (no test of these groups needs 5 s in a normal run; the job model sets its own limit).
  return ['--project=contract', '--project=property', ...specs, `--workers=${workers}`, '--reporter=dot', '--retries=0', '--timeout=20000',
    ...(mutant ? ['--max-failures=1'] : [])];
}

async function main(): Promise<number> {
  const root = process.cwd();
  const groups = readGroups(root);
  const active = process.env.__STRYKER_ACTIVE_MUTANT__;
  const where = active === undefined ? undefined : locate(root, groups, active);
  if (active !== undefined && !where) console.error(`mutant ${active} is in no file of mutation/scope.json: running every group`);
  const rawDir = mkdtempSync(join(tmpdir(), 'cpc-mutation-raw-'));
  // The user's CPC_* variables reach Playwright only through the run configuration (spawnPlaywright).
  const config = mutationRunConfig(process.env, rawDir);
  // Infinite loops end at Stryker's hit limit in the emulator's process (mutation/hit-limit.mjs).
  const env: Record<string, string> = { FORCE_COLOR: '0' };
  if (active !== undefined) env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(join(root, 'mutation/hit-limit.mjs')).href}`.trim();
  const workers = userSettings().mutation.workers;
  try {
    for (const specs of stages(root, groups, where)) {
      const code = await exitOf(spawnPlaywright(playwrightArgs(specs, active !== undefined, workers), config, { stdio: ['ignore', 'inherit', 'inherit'], env }));
      if (code !== 0) return code;
    }
    return 0;
  } finally {
    rmSync(rawDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
