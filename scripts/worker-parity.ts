/**
 * Worker parity (run/worker-parity.ts): the serverless contract suite against a standalone
 * emulator's world served by worker/handler.py on the official worker library and against a world
 * of it run by its built-in handler, each seen as a deployment; the MUST verdicts must be the same,
 * none failed.
 *
 *   npm run worker-parity -- [--grep RE] [--workers N] [--out DIR] [--handler FILE]
 *
 * The library comes from RUNPOD_PYTHON (a python with runpod==1.12.0) or ../shared/tools/runpod-python
 * (run/worker-library.ts). Exit 0 the same, 1 different or a MUST failed, 2 bad options or no library.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../run/paths.js';
import { findWorkerLibrary } from '../run/worker-library.js';
import { DEFAULT_GREP, describeParity, runParity } from '../run/worker-parity.js';

function usage(message: string): never {
  process.stderr.write(`worker-parity: ${message}\nusage: npm run worker-parity -- [--grep RE] [--workers N] [--out DIR] [--handler FILE]\n`);
  process.exit(2);
}

let values: Record<string, string | undefined> = {};
try {
  ({ values } = parseArgs({ options: { grep: { type: 'string' }, workers: { type: 'string' }, out: { type: 'string' }, handler: { type: 'string' } }, strict: true }));
} catch (e) {
  usage((e as Error).message);
}
const workers = Number(values.workers ?? 3);
if (!Number.isInteger(workers) || workers < 1 || workers > 16) usage(`--workers is an integer from 1 to 16, got ${values.workers}`);
const handler = values.handler ?? join('worker', 'handler.py');
if (!existsSync(resolve(PROJECT_ROOT, handler))) usage(`no worker at ${handler}`);
const python = findWorkerLibrary();
if (!python.found) usage(python.reason);

const result = await runParity({ grep: values.grep ?? DEFAULT_GREP, outDir: values.out ?? join(PROJECT_ROOT, 'reports', 'out', 'worker-parity'), python: python.python, handler, workers });
process.stdout.write(describeParity(result) + '\n');
process.exit(result.differences.length === 0 && result.failed.length === 0 ? 0 : 1);
