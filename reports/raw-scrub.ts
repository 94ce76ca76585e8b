import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_FILE } from './raw.js';
import { harvestValue, redactText, redactValue } from '../lib/redact.js';

/**
 * Rewrites the raw results file with every key removed that ANY of its lines reveals. The
 * reporter scrubs line by line as tests end, so a key that a later test showed in a header
 * may sit in the free text of an earlier line; the file is under `reports/out/` too.
 */
export function scrubRawFile(dir: string): void {
  const path = join(dir, RAW_FILE);
  if (!existsSync(path)) return;
  const lines = readFileSync(path, 'utf8').split('\n');
  const parsed = lines.map((line) => {
    try {
      return line.trim() ? (JSON.parse(line) as unknown) : undefined;
    } catch {
      return undefined;
    }
  });
  const keys = new Set<string>();
  for (const value of parsed) if (value !== undefined) harvestValue(value, keys);
  const out = lines.map((line, i) => (parsed[i] !== undefined ? JSON.stringify(redactValue(parsed[i], keys)) : redactText(line, keys)));
  writeFileSync(path, out.join('\n'));
}
