/**
 * The unit test files that share one process (test/unit-files.ts): imported here in order, so
 * node --test runs their tests in this one process. Their top-level `before`/`after` hooks run
 * around all of them; each file keeps its own module state.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { TEST_DIR, unitFiles } from './unit-files.js';

for (const file of unitFiles().shared) await import(pathToFileURL(join(TEST_DIR, file)).href);
