/**
 * Which unit test files share a process. A file that starts processes, listens for its own
 * sockets' timing or is heavy on its own says so on its first line, `// @own-process: why`,
 * and runs in a process of its own (node --test, six files at a time); every other file
 * runs in one shared process (test/in-process.ts), which saves a Node start and the loading
 * of the modules they share for every file (docs/benchmarks.md has the figure).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));

const OWN_PROCESS = /^\/\/ @own-process: \S/;

/** Every unit test file (`test/*.test.ts`), sorted, split by where it runs. */
export function unitFiles(dir = TEST_DIR): { own: string[]; shared: string[] } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort();
  const own = files.filter((f) => OWN_PROCESS.test(readFileSync(join(dir, f), 'utf8')));
  return { own, shared: files.filter((f) => !own.includes(f)) };
}
