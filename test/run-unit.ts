/**
 * `npm run test:unit`: the unit tests, with node's test runner three files at a time: the files
 * that share a process (test/in-process.ts) as one, then every `@own-process` file in its own.
 * Given file names (`npm run test:unit -- test/x.test.ts`), runs just those, each in its own process.
 */
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { TEST_DIR, unitFiles } from './unit-files.js';

const named = process.argv.slice(2);
const { own } = unitFiles();
const files = named.length > 0 ? named : [join(TEST_DIR, 'in-process.ts'), ...own.map((f) => join(TEST_DIR, f))];
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=spec', ...files.map((f) => relative(process.cwd(), f) || f)], { stdio: 'inherit' });
child.on('close', (code, signal) => { process.exitCode = code ?? (signal ? 128 : 1); });
