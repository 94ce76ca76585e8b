// The Examples table of emulator/serverless/HANDLER.md, read as data: the tests that run the
// conformance worker (on the library alone, and as outside workers of the emulator) hold every row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../run/paths.js';

/** One example: the input, what happens to the job (`cancel`, `execution timeout`), and what a client sees. */
export interface Row { input: Record<string, unknown>; then: string; status: string; error: string | undefined; items: number; output: 'items' | 'none' | unknown[] }

const cell = (text: string): string => text.trim().replace(/^`(.*)`$/, '$1');

/** The Examples table of HANDLER.md, every row. */
export function handlerRows(): Row[] {
  const doc = readFileSync(join(PROJECT_ROOT, 'emulator', 'serverless', 'HANDLER.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Examples'));
  const lines = section.split('\n').filter((l) => l.startsWith('| `{'));
  return lines.map((line) => {
    const [input, then, status, error, items, output] = line.split('|').slice(1, -1).map(cell);
    return {
      input: JSON.parse(input!) as Record<string, unknown>,
      then: then!,
      status: status!,
      error: error === 'none' ? undefined : JSON.parse(error!) as string,
      items: Number(items),
      output: output === 'none' ? 'none' : output === "the items'" ? 'items' : JSON.parse(output!) as unknown[],
    };
  });
}
