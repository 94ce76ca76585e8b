/**
 * `npm run test:unit`: the unit tests, with node's test runner six files at a time: the files
 * that share a process (test/in-process.ts) as one, every `@own-process` file in its own.
 * Given file names (`npm run test:unit -- test/x.test.ts`), runs just those, each in its own process.
 *
 * Through node:test's `run()`, which takes the files in the order given: `node --test` sorts
 * the files it is given by name, so the order below would not reach it. Each file's process
 * gets this one's Node options (`--import tsx`).
 */
import { resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { TEST_DIR, unitFiles } from './unit-files.js';

/** The files that share one process, run as one file. */
const SHARED = 'in-process.ts';

/**
 * The longest files start first, longest first, so none is left running alone at the end: the
 * first two wait most of their time (real-time jobs, each two conformance runs against one
 * standalone emulator), and a late start of either sets the end of the whole run; the shared
 * process is next, the most CPU in one process (docs/benchmarks.md, "The parts of `npm test`").
 */
const LONGEST = ['worker-parity', 'cli-plan-matches-run', SHARED, 'load-smoke', 'cli-nohang', 'package-install', 'reports-cli',
  'first-contact', 'load-body-write', 'worker-library', 'cli-shard', 'worker-outside', 'cli-preflight', 'serverless-python-client'].map((n) => n === SHARED ? n : `${n}.test.ts`);

/** Files at a time: several of the longest mostly wait (real-time clocks, child processes), and six keep both cores busy while they do. */
const CONCURRENCY = 6;

const named = process.argv.slice(2);
const { own } = unitFiles();
const longest = LONGEST.filter((f) => f === SHARED || own.includes(f));
const files = named.length > 0 ? named.map((f) => resolve(f))
  : [...longest, ...own.filter((f) => !longest.includes(f))].map((f) => resolve(TEST_DIR, f));
const stream = run({ files, concurrency: CONCURRENCY });
stream.on('test:fail', () => { process.exitCode = 1; });
stream.compose(new spec()).pipe(process.stdout);
