/**
 * The unit test files that share one process (test/unit-files.ts): imported here in order, so
 * node --test runs their tests in this one process. Their top-level `before`/`after` hooks run
 * around all of them; each file keeps its own module state.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { setGlobalDispatcher } from 'undici';
import { TEST_DIR, unitFiles } from './unit-files.js';
import { harnessAgent } from './agent-support.js';

// A file's top-level `before` hooks run long before its tests in this process, so a connection
// opened there may sit idle past the emulator's own 25 s close: the files that call their own
// emulator through undici's global pool get a pool that lets idle connections go after 1 s
// (test/agent-support.ts), not one that keeps them until the emulator's own 25 s close.
setGlobalDispatcher(harnessAgent());

for (const file of unitFiles().shared) await import(pathToFileURL(join(TEST_DIR, file)).href);
