import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder, whatever the working directory. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const SUITE_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The reporter that writes the raw results every report is built from, as Playwright is given it (from the project root). */
export const RAW_REPORTER = './reports/playwright-reporter.ts';

/** Playwright's reporters for a run that prints dots (a quiet run, a matrix): dots and the raw results. */
export const DOT_REPORTERS = `--reporter=dot,${RAW_REPORTER}`;

/** The load scenarios' folder. */
export const LOAD_DIR = join(PROJECT_ROOT, 'load');

/** The scenario scripts: one per `load/*.ts` file (helpers live in load/lib, benchmarks in load/bench). */
export function scenarioNames(): string[] {
  return readdirSync(LOAD_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => basename(f, '.ts')).sort();
}

/** True when the suite runs from an installed package (inside a `node_modules` folder), not from a clone. */
export const INSTALLED: boolean = PROJECT_ROOT.split(sep).includes('node_modules');

/**
 * Where a command writes by default: `reports/out` (and Playwright's `test-results`) under the
 * working directory, so an installed suite never writes inside `node_modules`. From a clone the
 * npm scripts run in the project root, which is the same folder.
 */
export const outputRoot = (): string => process.cwd();
export const defaultOutDir = (...under: string[]): string => resolve(outputRoot(), 'reports', 'out', ...under);

/** tsx's loader as a file URL, for `node --import` in child processes (whatever the working directory). */
export const tsxLoader = (): string => import.meta.resolve('tsx');

/**
 * Environment for a Playwright child process (`env` is all of it). Playwright compiles
 * TypeScript itself, but never files inside `node_modules`: an installed suite's config, tests
 * and helpers are loaded through tsx's loader instead. With `loopbackOnly` (the run's target is
 * the embedded emulator), see {@link loopbackOnlyEnv}.
 */
export function playwrightEnv(env: NodeJS.ProcessEnv, options: { loopbackOnly?: boolean } = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = options.loopbackOnly ? loopbackOnlyEnv(env) : { ...env };
  if (INSTALLED) merged.NODE_OPTIONS = [`--import=${tsxLoader()}`, env.NODE_OPTIONS ?? ''].join(' ').trim();
  return merged;
}

/**
 * Environment for a child process whose every connection is plain HTTP to an emulator on
 * loopback (an embedded run's Playwright and its load scenarios): `env` without
 * `NODE_EXTRA_CA_CERTS`. Node reads and parses that file as each process starts, whether or
 * not the process ever verifies a certificate, which is costly where it names the system's
 * whole bundle, and an embedded run starts several such processes, some of them one after the
 * other before the first test (docs/benchmarks.md). A run against a deployment keeps it.
 */
export function loopbackOnlyEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _unused, ...rest } = env;
  return rest;
}
