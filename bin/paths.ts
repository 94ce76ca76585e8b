import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder, whatever the working directory. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const SUITE_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
