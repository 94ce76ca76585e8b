/**
 * `npm run test:unit`: the unit tests, with node's test runner three files at a time: the files
 * that share a process (test/in-process.ts) as one, then every `@own-process` file in its own.
 * Given file names (`npm run test:unit -- test/x.test.ts`), runs just those, each in its own process.
 */
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { TEST_DIR, unitFiles } from './unit-files.js';

/** The longest files start first (the runner takes files in order), so none is left running alone at the end. */
const LONGEST = ['cli-plan-matches-run', 'package-install', 'cli-shard', 'cli-nohang', 'reports-cli', 'load-smoke', 'cli-preflight', 'load-body-write'].map((n) => `${n}.test.ts`);

const named = process.argv.slice(2);
const { own } = unitFiles();
const longest = LONGEST.filter((f) => own.includes(f));
const files = named.length > 0 ? named
  : [...longest, 'in-process.ts', ...own.filter((f) => !longest.includes(f))].map((f) => join(TEST_DIR, f));
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=spec', ...files.map((f) => relative(process.cwd(), f) || f)], { stdio: 'inherit' });
child.on('close', (code, signal) => { process.exitCode = code ?? (signal ? 128 : 1); });
